/// The names of the changed properties of a save's updated objects. An object of the same entity
/// as the one before it, with the same changed attributes and relationships, gets that object's
/// set: a save of many objects mostly changes the same properties, and a new set per object cost
/// as much as binding its row.
struct ChangedKeys {
    private var last: (entity: ObjectIdentifier, attributeSlots: [Int], relationshipIndices: [Int], keys: Set<String>)?

    /// The names of the properties of `object` whose values differ from the saved ones, the
    /// attributes' known by their slots.
    mutating func keys(of object: ManagedObject, changedSlots: [Int]) -> Set<String> {
        let entity = object.entity
        var relationshipIndices: [Int] = []
        // By index: a property's description is large, and only its slot and name are read.
        for index in entity.relationships.indices {
            let slot = entity.relationships[index].slot
            if !ObjectContext.same(object.relationshipValues[slot], object.savedRelationshipValues[slot]) { relationshipIndices.append(index) }
        }
        if let last, last.entity == ObjectIdentifier(entity), last.attributeSlots == changedSlots,
           last.relationshipIndices == relationshipIndices
        {
            return last.keys
        }
        var keys = Set(changedSlots.lazy.map { entity.attributes[$0].name })
        for index in relationshipIndices { keys.insert(entity.relationships[index].name) }
        last = (ObjectIdentifier(entity), changedSlots, relationshipIndices, keys)
        return keys
    }
}
