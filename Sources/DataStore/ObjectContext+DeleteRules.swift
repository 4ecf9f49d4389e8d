/// Delete propagation, applied when saving, each deleted object first told (`prepareForDeletion`,
/// once per deletion): Nullify removes the deleted object from the other side,
/// Cascade deletes the destinations too, Deny refuses while destinations remain, No Action does
/// nothing.
extension ObjectContext {
    /// Applies the delete rules of every deleted object; returns the Deny violations.
    func propagateDeletes() -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        var processed: Set<ObjectIdentifier> = []
        var index = 0
        while index < deleted.count {
            let object = deleted.objects[index]
            index += 1
            guard processed.insert(ObjectIdentifier(object)).inserted else { continue }
            if !object.changeFlags.contains(.preparedForDeletion) {
                object.changeFlags.insert(.preparedForDeletion)
                object.lifecycle?.prepareForDeletion()
            }
            for relationship in object.entity.relationships where !relationship.isTransient {
                let destinations: [ObjectID] = relationship.isToMany
                    ? destinationIDs(of: object, slot: relationship.slot).ids
                    : destinationID(of: object, slot: relationship.slot).map { [$0] } ?? []
                guard !destinations.isEmpty else { continue }
                switch relationship.deleteRule {
                case .deny:
                    let remaining = destinations.filter { !deleted.contains(self.object(with: $0)) }
                    if !remaining.isEmpty { failures.append(.deleteDenied(object.objectID, relationship: relationship.name)) }
                case .cascade:
                    for id in destinations { delete(self.object(with: id)) }
                    nullifyInverse(of: relationship, for: object, destinations: destinations)
                case .nullify:
                    nullifyInverse(of: relationship, for: object, destinations: destinations)
                case .noAction:
                    break
                }
            }
        }
        return failures
    }

    /// Removes `object` from the inverse relationship of each destination.
    private func nullifyInverse(of relationship: RelationshipDescription, for object: ManagedObject, destinations: [ObjectID]) {
        for id in destinations {
            let destination = self.object(with: id)
            if let inverse = inverse(of: relationship, in: destination.entity) {
                detach(object, from: inverse, of: destination)
            }
        }
    }
}
