/// The primitive layer under a property, for custom accessors on modelled keys, as Core Data's
/// `primitiveValue(forKey:)`, `willAccessValue(forKey:)` and `willChangeValue(forKey:)` serve
/// them: a primitive read or write loads a fault but tells no observer and records no undo step;
/// the access and change calls around it do that, once, for the whole accessor.
///
///     public var title: String? {
///         get {
///             willAccessValue(forKey: "title")
///             defer { didAccessValue(forKey: "title") }
///             return primitiveTitle
///         }
///         set {
///             willChangeValue(forKey: "title")
///             primitiveTitle = newValue?.trimmingCharacters(in: .whitespaces)
///             didChangeValue(forKey: "title")
///         }
///     }
///
/// A primitive write is a change all the same: the context saves it, `changedValues()` lists it.
/// In `awakeFromInsert` it sets a first value without telling anyone of a change, as apps do.
extension ManagedObject {
    /// The value of the property `key` as ``value(forKey:)`` reads it, without registering the
    /// read with Observation.
    public func primitiveValue(forKey key: String) -> Any? {
        if let attribute = entity.attribute(named: key) { return loadedValue(atSlot: attribute.slot).anyValue }
        guard let relationship = entity.relationship(named: key), let context else { return nil }
        if relationship.isToOne { return context.destinationID(of: self, slot: relationship.slot).map(context.object(with:)) }
        let objects = context.destinationIDs(of: self, slot: relationship.slot).ids.map(context.object(with:))
        return relationship.isOrdered ? objects : Set(objects)
    }

    /// Sets the property `key` as ``setValue(_:forKey:)`` does — converting the value, keeping a
    /// relationship's inverse — telling no observer of this object and recording no undo step.
    public func setPrimitiveValue(_ value: Any?, forKey key: String) throws(ContextError) {
        try withoutTelling { () throws(ContextError) in try setValue(value, forKey: key) }
    }

    /// The value of the attribute `key`, without registering the read: the primitive accessor
    /// of a custom property.
    public func primitiveValue<Root, Value>(for key: AttributeKey<Root, Value>) -> Value {
        guard let slot = attributeSlot(key.name, key.slot) else { return Value.unsetValue }
        return Value(attributeValue: loadedValue(atSlot: slot)) ?? Value.unsetValue
    }

    /// Sets the attribute `key` to `value`, telling no observer and recording no undo step.
    public func setPrimitiveValue<Root, Value>(_ value: Value, for key: AttributeKey<Root, Value>) {
        withoutTelling { self[key] = value }
    }

    /// The destination of the to-one `key`, without registering the read.
    public func primitiveValue<Root, Destination>(for key: ToOneKey<Root, Destination>) -> Destination? {
        guard let slot = relationshipSlot(key.name, key.slot), let context, let id = context.destinationID(of: self, slot: slot) else {
            return nil
        }
        return context.object(with: id) as? Destination
    }

    /// Sets the to-one `key` (keeping its inverse), telling no observer and recording no undo step.
    public func setPrimitiveValue<Root, Destination>(_ destination: Destination?, for key: ToOneKey<Root, Destination>) {
        withoutTelling { self[key] = destination }
    }

    /// Loads the object's values if it is a fault, and registers a read of `key` with the
    /// Observation tracking in progress: the first call of a custom getter.
    public func willAccessValue(forKey key: String?) {
        fulfillIfNeeded()
        guard let key else { return }
        if let attribute = entity.attribute(named: key) {
            registerAccess(toAttributeAt: attribute.slot)
        } else if let relationship = entity.relationship(named: key) {
            registerAccess(toRelationshipAt: relationship.slot)
        }
    }

    /// Ends a custom getter's access; the read is registered by ``willAccessValue(forKey:)``.
    public func didAccessValue(forKey key: String?) {}

    /// Tells the observers of `key` that it is about to change, and records the value it had
    /// with the context's undo manager: the first call of a custom setter.
    public func willChangeValue(forKey key: String) {
        fulfillIfNeeded()
        if let attribute = entity.attribute(named: key) {
            if let context, let undoManager = context.undoManager {
                undoManager.recordChange(of: self, attributeSlot: attribute.slot, from: primitiveValue(atSlot: attribute.slot), in: context)
            }
            willSetPropertyValue(atSlot: attribute.slot)
        } else if let relationship = entity.relationship(named: key) {
            observationRegistrar?.willSet(self, keyPath: entity.observationKeys.relationships[relationship.slot])
        }
    }

    /// Tells the observers of `key` that it changed: the last call of a custom setter.
    public func didChangeValue(forKey key: String) {
        if let attribute = entity.attribute(named: key) {
            didSetPropertyValue(atSlot: attribute.slot)
        } else if let relationship = entity.relationship(named: key) {
            observationRegistrar?.didSet(self, keyPath: entity.observationKeys.relationships[relationship.slot])
            context?.didChange(self)
        }
    }

    /// Runs `change` with this object's observers and the context's undo manager kept out of it.
    /// (The other side of a relationship is another object: its observers are told.)
    private func withoutTelling<Failure: Error>(_ change: () throws(Failure) -> Void) throws(Failure) {
        // The registrar is set aside in its box, which stays: taking it out of the object would
        // give the box up and make another after.
        let observation = observationBox, undoManager = context?.undoManager
        if observation != nil { extrasIfAny?.observationBox = nil }
        context?.undoManager = nil
        defer {
            if observation != nil { observationBox = observation }
            context?.undoManager = undoManager
        }
        try change()
    }
}
