/// Direct access to the stored properties of generated classes: a property reads and writes its
/// stored property itself, without going through `AttributeValue`, when the object keeps its
/// values there, and goes through typed access (`self[key]`) otherwise, which handles every case.
///
///     public var title: String? { get { self[Book.title, _title] } set { write(newValue, to: Book.title, current: _title) { _title = $0 } } }
///
/// Both are inlined into the generated property, where `stored` and `store` are plain reads and
/// writes of a stored property: a release build compiles them to the accessor one would write by hand.
extension ManagedObject {
    /// The value of the attribute `key` names, whose stored property `stored` reads once the
    /// object's row is loaded.
    @inlinable
    public subscript<Root, Value: PropertyStorable>(key: AttributeKey<Root, Value>, stored: @autoclosure () -> Value.Stored?) -> Value {
        switch propertyRead {
        case .stored: return Value(stored: stored())
        case .storedAndRegistered:
            registerAccess(toAttributeAt: key.slot)
            return Value(stored: stored())
        case .typed: return self[key]
        }
    }

    /// Writes `newValue` to the attribute `key` names: with `store` into its stored property when
    /// it differs from the `current` one, recording the change — or, for a new object no one
    /// observes, with `store` alone (`propertyWrite(atSlot:)`); through typed access when the
    /// object keeps its values elsewhere, the attribute is derived or an undo manager records changes.
    @inlinable
    public func write<Root, Value: PropertyStorable>(
        _ newValue: Value, to key: AttributeKey<Root, Value>, current: @autoclosure () -> Value.Stored?,
        _ store: (Value.Stored?) -> Void
    ) {
        let write = propertyWrite(atSlot: key.slot)
        guard write != .typed else {
            self[key] = newValue
            return
        }
        let stored = newValue.stored
        if write == .stored {
            store(stored)
        } else if current() != stored {
            willSetPropertyValue(atSlot: key.slot)
            store(stored)
            didSetPropertyValue(atSlot: key.slot)
        }
    }

    /// The value of the attribute `key` names, kept in a compact stored property (`Int64`,
    /// `Double` and `Date` values, `CompactOptional`).
    @inlinable
    public subscript<Root, Value: PropertyStorable>(
        key: AttributeKey<Root, Value>, stored: @autoclosure () -> CompactOptional<Value.Stored>
    ) -> Value where Value.Stored: CompactlyStorable {
        self[key, stored().value]
    }

    /// Writes `newValue` to the attribute `key` names, kept in a compact stored property; a value
    /// that does not fit there (see `CompactOptional`) goes through typed access.
    @inlinable
    public func write<Root, Value: PropertyStorable>(
        _ newValue: Value, to key: AttributeKey<Root, Value>, current: @autoclosure () -> CompactOptional<Value.Stored>,
        _ store: (CompactOptional<Value.Stored>) -> Void
    ) where Value.Stored: CompactlyStorable {
        guard let stored = CompactOptional<Value.Stored>(fitting: newValue.stored) else {
            self[key] = newValue
            return
        }
        write(newValue, to: key, current: current().value) { _ in store(stored) }
    }

    /// How a generated getter reads its attribute, once a fault has loaded its row (which this
    /// does first). One call answers where the values are and whether reads register, so that a
    /// getter of a class without observation costs what it did before observation existed.
    public var propertyRead: PropertyRead {
        fulfillIfNeeded()
        guard valueStorage == .properties else { return .typed }
        return registersReads ? .storedAndRegistered : .stored
    }

    /// Whether a generated setter may write the property of the attribute in `slot` itself, after
    /// loading a fault's row: the values are in stored properties, the store does not compute
    /// the attribute (a derived one, whose misuse `self[key] = value` reports) and no undo manager
    /// records the change (which `self[key] = value` does).
    public func canSetPropertyValue(atSlot slot: Int) -> Bool {
        fulfillIfNeeded()
        guard valueStorage == .properties, withContext({ $0.undoManager == nil }) ?? true else { return false }
        let entity = entity
        return !entity.rowLayout.hasDerivedAttributes || !entity.attributes[slot].isDerived
    }

    /// How a generated setter writes the attribute in `slot`, after loading a fault's row: one call
    /// answers whether it writes its stored property and whether anything must hear of the change,
    /// so that filling in a new object costs what assigning its fields does.
    public func propertyWrite(atSlot slot: Int) -> PropertyWrite {
        guard canSetPropertyValue(atSlot: slot) else { return .typed }
        // An inserted object keeps no saved values and is a change already: with no registrar
        // (no one has read it under observation tracking) and no observers of the context, no one
        // is told of a write.
        guard changeFlags.contains(.inserted), observationBox == nil, withContext({ $0.changeObservers.isEmpty }) ?? true else {
            return .storedAndTracked
        }
        return .stored
    }

    /// Keeps the saved values apart before a generated setter changes the property of the
    /// attribute in `slot`, as the first change of any value does, and tells its observers.
    public func willSetPropertyValue(atSlot slot: Int) {
        keepSavedAttributeValueApart(atSlot: slot)
        observationRegistrar?.willSet(self, keyPath: entity.observationKeys.attributes[slot])
    }

    /// Records that a generated setter changed the property of the attribute in `slot`, and tells
    /// its observers.
    public func didSetPropertyValue(atSlot slot: Int) {
        observationRegistrar?.didSet(self, keyPath: entity.observationKeys.attributes[slot])
        withContext { $0.didChange(self) }
    }
}

/// How a generated setter writes its attribute (`ManagedObject.propertyWrite(atSlot:)`).
@frozen public enum PropertyWrite: UInt8 {
    /// Into its stored property, with nothing to record or tell: a new object no one observes.
    case stored
    /// Into its stored property when the value differs, keeping the saved value apart and telling
    /// the observers (`willSetPropertyValue(atSlot:)`, `didSetPropertyValue(atSlot:)`).
    case storedAndTracked
    /// Through typed access (`self[key] = value`): the values are elsewhere, the attribute is
    /// derived, or an undo manager records the change.
    case typed
}

/// How a generated getter reads its attribute (`ManagedObject.propertyRead`).
@frozen public enum PropertyRead: UInt8 {
    /// From its stored property.
    case stored
    /// From its stored property, registering the read with Observation.
    case storedAndRegistered
    /// Through typed access (`self[key]`): the values are elsewhere.
    case typed
}
