/// Reading and writing slots: the primitives typed access and key-value coding share. Every read
/// fulfils a fault first; every write is reported to the context.
extension ManagedObject {
    /// Attribute values by slot, while `valueStorage` is `.buffer`: the entity's row in
    /// `valueBuffer` from `valueStart`, kept apart for the object's size.
    var attributeValues: AttributeValues {
        get { AttributeValues(buffer: valueBuffer, start: valueStart, count: entity.attributes.count) }
        _modify {
            // Moved out and back, so that the buffer stays uniquely referenced while it is changed.
            var values = AttributeValues(buffer: takeValueBuffer(), start: valueStart, count: entity.attributes.count)
            defer { keep(values) }
            yield &values
        }
    }

    private func keep(_ values: AttributeValues) {
        precondition(
            values.isEmpty || values.count == entity.attributes.count,
            "an object's attribute values have one slot per attribute of its entity")
        var (buffer, start) = values.parts
        if start > Self.largestValueStart {
            // A row beyond `valueStart`'s reach in a larger buffer than writers fill: one of its own.
            (buffer, start) = AttributeValues(count: values.count) { values[$0] }.parts
        }
        valueBuffer = buffer
        valueStart = start
    }

    /// The value in `slot`, read by the object's user: registered with observation in progress.
    func attributeValue(atSlot slot: Int) -> AttributeValue {
        registerAccess(toAttributeAt: slot)
        return loadedValue(atSlot: slot)
    }

    /// The value in `slot`, as the runtime reads it: loading a fault, registering nothing.
    func loadedValue(atSlot slot: Int) -> AttributeValue {
        fulfillIfNeeded()
        return primitiveValue(atSlot: slot)
    }

    /// The number of slots holding values: every attribute's once loaded, none for a fault.
    var loadedAttributeCount: Int {
        switch valueStorage {
        case .none: 0
        case .buffer: valueBuffer == nil ? 0 : entity.attributes.count
        case .properties: entity.attributes.count
        }
    }

    /// The value in `slot`, without loading a fault: `null` when not loaded.
    func primitiveValue(atSlot slot: Int) -> AttributeValue {
        switch valueStorage {
        case .none: .null
        case .buffer: slot < loadedAttributeCount ? attributeValues[slot] : .null
        case .properties: storedAttributeValue(atSlot: slot)
        }
    }

    /// Writes `value` into a loaded `slot` wherever the values are, moving them to a buffer when
    /// the class's property cannot hold it.
    private func setPrimitiveValue(_ value: AttributeValue, atSlot slot: Int) {
        if valueStorage == .properties {
            if storeAttributeValue(value, atSlot: slot) { return }
            let values = currentAttributeValues
            clearStoredAttributes()
            attributeValues = values
            valueStorage = .buffer
        }
        attributeValues[slot] = value
    }

    /// Every slot's current value, as one value.
    var currentAttributeValues: AttributeValues {
        switch valueStorage {
        case .none: AttributeValues()
        case .buffer: attributeValues
        case .properties: storedAttributeValues
        }
    }

    /// Every slot's current value, one per attribute of the entity (null where not loaded), as a
    /// save reads them: a generated class's properties in one walk, written as a row of `writer`
    /// where a buffer of their own would be an allocation per object.
    func currentAttributeValues(writingInto writer: inout AttributeValues.Writer) -> AttributeValues {
        let count = entity.attributes.count
        guard valueStorage == .properties else {
            let current = currentAttributeValues
            return current.count == count ? current : writer.row(count: count) { $0 < current.count ? current[$0] : .null }
        }
        return writer.row(count: count, filling: collectStoredAttributeValues(into:))
    }

    /// Makes `values` the current values: in the class's stored properties when they hold them all,
    /// else in the buffer. Empty `values` leave none: the state of a fault.
    func setCurrentAttributeValues(_ values: AttributeValues) {
        let hasProperties = entity.rowLayout.fillsProperties
        if hasProperties, !values.isEmpty, values.count == entity.attributes.count, storeAttributeValues(values) {
            if valueBuffer != nil { valueBuffer = nil }
            valueStorage = .properties
            return
        }
        // Releases what the properties still hold, of earlier values or of a partial store above.
        if hasProperties { clearStoredAttributes() }
        attributeValues = values
        valueStorage = values.isEmpty ? .none : .buffer
    }

    /// The saved values of the attributes changed since the object was last read or saved; `nil`
    /// while none changed (see `savedAttributeValues`).
    var savedAttributeValuesIfChanged: SavedAttributeValues? {
        get { extrasIfAny?.savedAttributes }
        _modify {
            if let extras = extrasIfAny {
                yield &extras.savedAttributes
                attachments = ObjectAttachments(extras)
            } else {
                var attributes: SavedAttributeValues?
                yield &attributes
                if let attributes { withExtras { $0.savedAttributes = attributes } }
            }
        }
    }

    /// The relationship values as last read or written, once they differ from `relationshipValues`
    /// (see `savedRelationshipValues`).
    var savedRelationshipValuesIfChanged: [RelationshipValue]? {
        get { extrasIfAny?.savedRelationships }
        _modify {
            if let extras = extrasIfAny {
                yield &extras.savedRelationships
                attachments = ObjectAttachments(extras)
            } else {
                var relationships: [RelationshipValue]?
                yield &relationships
                if let relationships { withExtras { $0.savedRelationships = relationships } }
            }
        }
    }

    /// The attribute values as last read from or written to the store: what `rollback()` restores
    /// and what `save()` compares with.
    var savedAttributeValues: AttributeValues {
        let current = currentAttributeValues
        return savedAttributeValuesIfChanged?.applied(to: current) ?? current
    }

    /// The value of the attribute in `slot` as last read from or written to the store.
    func savedAttributeValue(atSlot slot: Int) -> AttributeValue {
        savedAttributeValuesIfChanged?[slot] ?? primitiveValue(atSlot: slot)
    }

    /// The slots whose values in `current` (the current values, read once) differ from the saved
    /// ones, in order.
    func changedAttributeSlots(current: AttributeValues) -> [Int] {
        savedAttributeValuesIfChanged?.changedSlots { $0 < current.count ? current[$0] : .null } ?? []
    }

    /// Whether the attribute in `slot` differs from its saved value.
    func attributeChanged(atSlot slot: Int) -> Bool {
        guard let saved = savedAttributeValuesIfChanged?[slot] else { return false }
        return primitiveValue(atSlot: slot) != saved
    }

    /// The relationship values as last read from or written to the store: what `rollback()`
    /// restores and what `save()` compares with.
    var savedRelationshipValues: [RelationshipValue] { savedRelationshipValuesIfChanged ?? relationshipValues }

    /// Makes the current values the saved ones, once a save wrote them.
    func keepValuesAsSaved() {
        // Checked first: a freshly made object has none, and writing `nil` over `nil` still costs a release.
        guard let extras = extrasIfAny else { return }
        extras.savedAttributes = nil
        extras.savedRelationships = nil
        attachments = ObjectAttachments(extras)
    }

    /// Makes `values` both the current and the saved values: a row just read.
    func setLoadedValues(_ values: AttributeValues, _ relationships: [RelationshipValue]) {
        setCurrentAttributeValues(values)
        setLoadedRelationshipValues(relationships)
    }

    /// Makes `relationships` the current values, and the current values of both kinds the saved
    /// ones: a row just read, its attribute values already in place.
    func setLoadedRelationshipValues(_ relationships: [RelationshipValue]) {
        relationshipValues = relationships
        keepValuesAsSaved()
    }

    /// Changes the relationship value in `slot`, keeping the saved values apart first.
    func changeRelationshipValue(_ value: RelationshipValue, atSlot slot: Int) {
        if savedRelationshipValuesIfChanged == nil { savedRelationshipValuesIfChanged = relationshipValues }
        relationshipValues[slot] = value
    }

    /// Sets the relationship value in `slot` as both current and saved: a change the store made.
    func setSavedRelationshipValue(_ value: RelationshipValue, atSlot slot: Int) {
        changingRelationship(at: slot, to: value) { relationshipValues[slot] = value }
        savedRelationshipValuesIfChanged?[slot] = value
    }

    /// Sets the destinations just read for the to-many in `slot`: the current value, and the saved
    /// one if it was not read yet.
    func setReadRelationshipValue(_ value: RelationshipValue, atSlot slot: Int) {
        relationshipValues[slot] = value
        if case .unloaded? = savedRelationshipValuesIfChanged?[slot] { savedRelationshipValuesIfChanged?[slot] = value }
    }

    /// Changes the value in `slot`, keeping its saved value apart first.
    func changeAttributeValue(_ value: AttributeValue, atSlot slot: Int) {
        keepSavedAttributeValueApart(atSlot: slot)
        setPrimitiveValue(value, atSlot: slot)
    }

    /// Keeps the value in `slot` as its saved value before its first change. An inserted object
    /// has none to keep: rollback forgets it, and its save writes every value.
    func keepSavedAttributeValueApart(atSlot slot: Int) {
        guard !changeFlags.contains(.inserted), savedAttributeValuesIfChanged?[slot] == nil else { return }
        // Read before the extras are made: making them moves the values the read needs.
        let saved = primitiveValue(atSlot: slot)
        // Through the extras directly: assigning the property would run its `_modify` coroutine.
        withExtras { extras in
            if extras.savedAttributes == nil {
                extras.savedAttributes = SavedAttributeValues(saved, forSlot: slot)
            } else {
                extras.savedAttributes!.keep(saved, forSlot: slot)
            }
        }
    }

    /// Sets the value in `slot` as both current and saved: a value the store computed.
    func setSavedAttributeValue(_ value: AttributeValue, atSlot slot: Int) {
        if primitiveValue(atSlot: slot) != value { changingAttribute(at: slot) { setPrimitiveValue(value, atSlot: slot) } }
        savedAttributeValuesIfChanged?.replace(value, forSlot: slot)
    }

    func setAttributeValue(_ value: AttributeValue, atSlot slot: Int) {
        fulfillIfNeeded()
        guard slot < loadedAttributeCount, primitiveValue(atSlot: slot) != value else { return }
        guard !entity.attributes[slot].isDerived else {
            // The store computes it when saving; a value set here would be lost, so the save reports it.
            context?.recordMisuse(.derivedValueSet(objectID, property: entity.attributes[slot].name))
            return
        }
        if let context, let undoManager = context.undoManager {
            undoManager.recordChange(of: self, attributeSlot: slot, from: primitiveValue(atSlot: slot), in: context)
        }
        changingAttribute(at: slot) { changeAttributeValue(value, atSlot: slot) }
        context?.didChange(self)
    }

    func destination(atSlot slot: Int) -> ManagedObject? {
        registerAccess(toRelationshipAt: slot)
        guard let context, let id = context.destinationID(of: self, slot: slot) else { return nil }
        return context.reachedObject(with: id)
    }

    func setDestination(_ object: ManagedObject?, atSlot slot: Int) {
        context?.setDestination(object, of: self, slot: slot)
    }

    func destinations(atSlot slot: Int) -> [ManagedObject] {
        registerAccess(toRelationshipAt: slot)
        guard let context else { return [] }
        return context.destinationIDs(of: self, slot: slot).map { context.object(with: $0) }
    }

    /// Replaces a to-many relationship's destinations: removes those not in `objects`, then adds or
    /// moves the others into the given order.
    func setDestinations(_ objects: [ManagedObject], atSlot slot: Int) {
        guard let context else { return }
        let wanted = Set(objects.map(ObjectIdentifier.init))
        for current in destinations(atSlot: slot) where !wanted.contains(ObjectIdentifier(current)) {
            context.removeDestination(current, from: self, slot: slot)
        }
        let isOrdered = entity.relationships[slot].isOrdered
        for (index, object) in objects.enumerated() {
            context.addDestination(object, to: self, slot: slot, at: isOrdered ? index : nil)
        }
    }
}
