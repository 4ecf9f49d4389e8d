/// Reading and writing slots: the primitives typed access and key-value coding share. Every read
/// fulfils a fault first; every write is reported to the context.
extension ManagedObject {
    func attributeValue(atSlot slot: Int) -> AttributeValue {
        fulfillIfNeeded()
        return slot < attributeValues.count ? attributeValues[slot] : .null
    }

    /// The attribute values as last read from or written to the store: what `rollback()` restores
    /// and what `save()` compares with.
    var savedAttributeValues: AttributeValues { savedAttributeValuesIfChanged ?? attributeValues }

    /// Whether the attribute in `slot` differs from its saved value.
    func attributeChanged(atSlot slot: Int) -> Bool {
        guard let saved = savedAttributeValuesIfChanged else { return false }
        return attributeValues[slot] != saved[slot]
    }

    /// The relationship values as last read from or written to the store: what `rollback()`
    /// restores and what `save()` compares with.
    var savedRelationshipValues: [RelationshipValue] { savedRelationshipValuesIfChanged ?? relationshipValues }

    /// Makes the current values the saved ones, once a save wrote them.
    func keepValuesAsSaved() {
        savedAttributeValuesIfChanged = nil
        savedRelationshipValuesIfChanged = nil
    }

    /// Makes `values` both the current and the saved values: a row just read.
    func setLoadedValues(_ values: AttributeValues, _ relationships: [RelationshipValue]) {
        attributeValues = values
        relationshipValues = relationships
        // Checked first: a freshly made object has neither, and writing `nil` over `nil` still costs a release.
        if savedAttributeValuesIfChanged != nil { savedAttributeValuesIfChanged = nil }
        if savedRelationshipValuesIfChanged != nil { savedRelationshipValuesIfChanged = nil }
    }

    /// Changes the relationship value in `slot`, keeping the saved values apart first.
    func changeRelationshipValue(_ value: RelationshipValue, atSlot slot: Int) {
        if savedRelationshipValuesIfChanged == nil { savedRelationshipValuesIfChanged = relationshipValues }
        relationshipValues[slot] = value
    }

    /// Sets the relationship value in `slot` as both current and saved: a change the store made.
    func setSavedRelationshipValue(_ value: RelationshipValue, atSlot slot: Int) {
        relationshipValues[slot] = value
        savedRelationshipValuesIfChanged?[slot] = value
    }

    /// Sets the destinations just read for the to-many in `slot`: the current value, and the saved
    /// one if it was not read yet.
    func setReadRelationshipValue(_ value: RelationshipValue, atSlot slot: Int) {
        relationshipValues[slot] = value
        if case .unloaded? = savedRelationshipValuesIfChanged?[slot] { savedRelationshipValuesIfChanged?[slot] = value }
    }

    /// Changes the value in `slot`, keeping the saved values apart first.
    func changeAttributeValue(_ value: AttributeValue, atSlot slot: Int) {
        if savedAttributeValuesIfChanged == nil { savedAttributeValuesIfChanged = attributeValues }
        attributeValues[slot] = value
    }

    /// Sets the value in `slot` as both current and saved: a value the store computed.
    func setSavedAttributeValue(_ value: AttributeValue, atSlot slot: Int) {
        attributeValues[slot] = value
        savedAttributeValuesIfChanged?[slot] = value
    }

    func setAttributeValue(_ value: AttributeValue, atSlot slot: Int) {
        fulfillIfNeeded()
        guard slot < attributeValues.count, attributeValues[slot] != value else { return }
        guard !entity.attributes[slot].isDerived else {
            // The store computes it when saving; a value set here would be lost, so the save reports it.
            context?.recordMisuse(.derivedValueSet(objectID, property: entity.attributes[slot].name))
            return
        }
        changeAttributeValue(value, atSlot: slot)
        context?.didChange(self)
    }

    func destination(atSlot slot: Int) -> ManagedObject? {
        guard let context, let id = context.destinationID(of: self, slot: slot) else { return nil }
        return context.object(with: id)
    }

    func setDestination(_ object: ManagedObject?, atSlot slot: Int) {
        context?.setDestination(object, of: self, slot: slot)
    }

    func destinations(atSlot slot: Int) -> [ManagedObject] {
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
