/// Typed property access for generated code: `self[Book.title]`, `self[Book.author]`.
extension ManagedObject {
    public subscript<Root, Value>(key: AttributeKey<Root, Value>) -> Value {
        get {
            guard let slot = attributeSlot(key.name, key.slot) else { return Value.unsetValue }
            return Value(attributeValue: attributeValue(atSlot: slot)) ?? Value.unsetValue
        }
        set {
            guard let slot = slotForWriting(attributeSlot(key.name, key.slot), key.name) else { return }
            setAttributeValue(newValue.attributeValue, atSlot: slot)
        }
    }

    public subscript<Root, Destination>(key: ToOneKey<Root, Destination>) -> Destination? {
        get {
            guard let slot = relationshipSlot(key.name, key.slot) else { return nil }
            return destination(atSlot: slot) as? Destination
        }
        set {
            guard let slot = slotForWriting(relationshipSlot(key.name, key.slot), key.name) else { return }
            setDestination(newValue, atSlot: slot)
        }
    }

    /// The destinations of an unordered to-many relationship.
    public subscript<Root, Destination>(key: ToManyKey<Root, Destination>) -> Set<Destination> {
        get {
            guard let slot = relationshipSlot(key.name, key.slot) else { return [] }
            return Set(destinations(atSlot: slot).compactMap { $0 as? Destination })
        }
        set {
            guard let slot = slotForWriting(relationshipSlot(key.name, key.slot), key.name) else { return }
            setDestinations(Array(newValue), atSlot: slot)
        }
    }

    /// The destinations of an ordered to-many relationship, in order.
    public subscript<Root, Destination>(ordered key: ToManyKey<Root, Destination>) -> [Destination] {
        get {
            guard let slot = relationshipSlot(key.name, key.slot) else { return [] }
            return destinations(atSlot: slot).compactMap { $0 as? Destination }
        }
        set {
            guard let slot = slotForWriting(relationshipSlot(key.name, key.slot), key.name) else { return }
            setDestinations(newValue, atSlot: slot)
        }
    }

    /// Adds `object` to a to-many relationship (at the end of an ordered one), keeping the inverse.
    public func add<Root, Destination>(_ object: Destination, to key: ToManyKey<Root, Destination>) {
        guard let slot = slotForWriting(relationshipSlot(key.name, key.slot), key.name) else { return }
        context?.addDestination(object, to: self, slot: slot, at: nil)
    }

    /// Inserts `object` into an ordered to-many relationship at `index`, keeping the inverse.
    public func insert<Root, Destination>(_ object: Destination, at index: Int, into key: ToManyKey<Root, Destination>) {
        guard let slot = slotForWriting(relationshipSlot(key.name, key.slot), key.name) else { return }
        context?.addDestination(object, to: self, slot: slot, at: index)
    }

    /// Removes `object` from a to-many relationship, keeping the inverse.
    public func remove<Root, Destination>(_ object: Destination, from key: ToManyKey<Root, Destination>) {
        guard let slot = slotForWriting(relationshipSlot(key.name, key.slot), key.name) else { return }
        context?.removeDestination(object, from: self, slot: slot)
    }

    /// `slot`, or `nil` after recording that generated code wrote a property the entity lacks, so the
    /// next save reports it instead of the value vanishing.
    func slotForWriting(_ slot: Int?, _ name: String) -> Int? {
        if slot == nil { context?.recordMisuse(.unknownProperty(entity: entity.name, property: name)) }
        return slot
    }

    @inline(__always)
    func attributeSlot(_ name: String, _ slot: Int) -> Int? {
        let attributes = entity.attributes
        if attributes.indices.contains(slot), attributes[slot].name == name { return slot }
        return entity.attribute(named: name)?.slot
    }

    @inline(__always)
    func relationshipSlot(_ name: String, _ slot: Int) -> Int? {
        let relationships = entity.relationships
        if slot < relationships.count, relationships[slot].name == name { return slot }
        return entity.relationship(named: name)?.slot
    }
}
