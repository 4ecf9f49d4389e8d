/// Relationship changes that keep both sides in step, as Core Data does: setting `book.author`
/// also adds the book to `author.books` and removes it from the old author's.
extension ObjectContext {
    func setDestination(_ destination: ManagedObject?, of object: ManagedObject, slot: Int) {
        guard slot < object.entity.relationships.count else { return }
        let relationship = object.entity.relationships[slot]
        guard relationship.isToOne else { return }
        let old = destinationID(of: object, slot: slot)
        guard old != destination?.objectID else { return }
        setToOne(object, slot: slot, to: destination?.objectID)
        guard let inverse = inverse(of: relationship, in: destination?.entity ?? old.map { self.object(with: $0).entity }) else { return }
        if let old {
            detach(object, from: inverse, of: self.object(with: old))
        }
        if let destination {
            attach(object, toInverse: inverse, of: destination, at: nil)
        }
    }

    func addDestination(_ destination: ManagedObject, to object: ManagedObject, slot: Int, at index: Int?) {
        guard destination.context === self, slot < object.entity.relationships.count else { return }
        let relationship = object.entity.relationships[slot]
        guard relationship.isToMany else { return }
        let list = destinationIDs(of: object, slot: slot)
        if list.contains(destination.objectID) {
            // Already there: only an ordered relationship can move it.
            guard relationship.isOrdered, let index, list.ids.firstIndex(of: destination.objectID) != index else { return }
            var moved = list
            moved.remove(destination.objectID)
            moved.insert(destination.objectID, at: index)
            setToMany(object, slot: slot, to: moved)
            return
        }
        var updatedList = list
        if let index { updatedList.insert(destination.objectID, at: index) } else { updatedList.append(destination.objectID) }
        setToMany(object, slot: slot, to: updatedList)
        if let inverse = inverse(of: relationship, in: destination.entity) {
            attach(object, toInverse: inverse, of: destination, at: nil)
        }
    }

    func removeDestination(_ destination: ManagedObject, from object: ManagedObject, slot: Int) {
        guard slot < object.entity.relationships.count else { return }
        let relationship = object.entity.relationships[slot]
        var list = destinationIDs(of: object, slot: slot)
        guard relationship.isToMany, list.contains(destination.objectID) else { return }
        list.remove(destination.objectID)
        setToMany(object, slot: slot, to: list)
        if let inverse = inverse(of: relationship, in: destination.entity) {
            detach(object, from: inverse, of: destination)
        }
    }

    // MARK: One side at a time

    /// Makes `destination`'s inverse point at `object` (to-one) or contain it (to-many); a to-one
    /// inverse that pointed elsewhere is first removed from that other object's relationship.
    private func attach(_ object: ManagedObject, toInverse inverse: RelationshipDescription, of destination: ManagedObject, at index: Int?) {
        if inverse.isToOne {
            let previous = destinationID(of: destination, slot: inverse.slot)
            guard previous != object.objectID else { return }
            setToOne(destination, slot: inverse.slot, to: object.objectID)
            if let previous, let forward = self.inverse(of: inverse, in: object.entity) {
                let previousObject = self.object(with: previous)
                detach(destination, from: forward, of: previousObject)
            }
        } else {
            var list = destinationIDs(of: destination, slot: inverse.slot)
            guard !list.contains(object.objectID) else { return }
            if let index { list.insert(object.objectID, at: index) } else { list.append(object.objectID) }
            setToMany(destination, slot: inverse.slot, to: list)
        }
    }

    /// Removes `object` from `owner`'s `relationship` without touching the other side.
    func detach(_ object: ManagedObject, from relationship: RelationshipDescription, of owner: ManagedObject) {
        if relationship.isToOne {
            if destinationID(of: owner, slot: relationship.slot) == object.objectID {
                setToOne(owner, slot: relationship.slot, to: nil)
            }
        } else {
            var list = destinationIDs(of: owner, slot: relationship.slot)
            guard list.contains(object.objectID) else { return }
            list.remove(object.objectID)
            setToMany(owner, slot: relationship.slot, to: list)
        }
    }

    private func setToOne(_ object: ManagedObject, slot: Int, to id: ObjectID?) {
        object.fulfillIfNeeded()
        setRelationshipValue(.toOne(id), of: object, slot: slot)
    }

    private func setToMany(_ object: ManagedObject, slot: Int, to list: ObjectIDList) {
        setRelationshipValue(.toMany(list), of: object, slot: slot)
    }

    /// Sets one side of a relationship, as a change to save (and to undo).
    func setRelationshipValue(_ value: RelationshipValue, of object: ManagedObject, slot: Int) {
        // An undo may reach an object that has become a fault since.
        object.fulfillIfNeeded()
        guard slot < object.relationshipValues.count else { return }
        undoManager?.recordChange(of: object, relationshipSlot: slot, from: object.relationshipValues[slot], in: self)
        object.changingRelationship(at: slot, to: value) { object.changeRelationshipValue(value, atSlot: slot) }
        relationshipsChanged = true
        didChange(object)
    }

    /// The inverse of `relationship`, as declared on `destination` (which may be a subentity of the
    /// declared destination).
    func inverse(of relationship: RelationshipDescription, in destination: EntityDescription?) -> RelationshipDescription? {
        guard let name = relationship.inverseName else { return nil }
        return destination?.relationship(named: name)
    }
}
