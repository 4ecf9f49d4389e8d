/// Settling a save's optimistic-locking conflicts by the context's `mergePolicy`.
extension ObjectContext {
    /// How many times a save settles conflicts and tries again before it fails with them: each
    /// try reads the rows as they are, so only a row another writer keeps changing exhausts them.
    static let mergeAttempts = 8

    /// Whether the merge policy settles what made a save fail, having settled it, so that saving
    /// again may succeed: conflicts with the store are merged now; a uniqueness clash with a row
    /// another writer inserted after this save looked for clashes is merged by the next try,
    /// which finds that row.
    func settled(_ error: SaveError) throws(SaveError) -> Bool {
        guard mergePolicy != .error else { return false }
        switch error {
        case .conflicts(let conflicts) where conflicts.allSatisfy({ $0.origin == .store }):
            guard case .custom(let policy) = mergePolicy else {
                settle(conflicts, by: mergePolicy)
                return true
            }
            do {
                try policy.resolve(optimisticLockingConflicts: conflicts, in: self)
                return true
            } catch {
                throw .mergePolicyFailed(message: "\(error)")
            }
        case .validation(let failures):
            // Only an inserted object's clash can be settled (merged) by trying again.
            guard mergePolicy.builtIn != .error else { return false }
            return failures.allSatisfy { if case .uniquenessViolated(let id, _, _) = $0 { id.isTemporaryID } else { false } }
        default:
            return false
        }
    }

    /// Brings each conflicting object in line with its row as the store holds it now, keeping
    /// what `policy` keeps of this context's changes, so that saving again writes them.
    func settle(_ conflicts: [SaveError.Conflict], by policy: MergePolicy) {
        let policy = policy.builtIn
        guard policy != .error else { return }
        for conflict in conflicts {
            guard let object = registeredObject(for: conflict.objectID) else { continue }
            guard let storeVersion = conflict.storeVersion else {
                // Another writer deleted the row: the object goes with it, whatever changed here.
                forgetDeletedElsewhere(object)
                continue
            }
            if deleted.contains(object) {
                // The deletion stands: it deletes the row as it is now.
                object.version = storeVersion
                continue
            }
            let current = object.isLoaded ? object.currentAttributeValues : nil
            let read = object.isLoaded ? object.savedAttributeValues : nil
            let toOnes = object.isLoaded ? object.relationshipValues : []
            let readToOnes = object.isLoaded ? object.savedRelationshipValues : []
            switch policy {
            case .error, .custom:
                continue
            case .rollback:
                refresh(object, mergeChanges: false)
            case .mergeByPropertyObjectTrump:
                refresh(object, mergeChanges: true)
            case .mergeByPropertyStoreTrump:
                refresh(object, mergeChanges: true)
                guard let read else { continue }
                // Where the store's value is no longer the one read, the store changed it: it wins.
                for slot in read.indices where Self.isSettable(slot, of: object)
                    && object.savedAttributeValue(atSlot: slot) != read[slot] && object.primitiveValue(atSlot: slot) != object.savedAttributeValue(atSlot: slot) {
                    object.setAttributeValue(object.savedAttributeValue(atSlot: slot), atSlot: slot)
                }
                restoreToOnes(of: object, where: { slot in
                    slot < readToOnes.count && !Self.same(object.savedRelationshipValues[slot], readToOnes[slot])
                        && !Self.same(object.relationshipValues[slot], object.savedRelationshipValues[slot])
                }, to: { object.savedRelationshipValues[$0] })
            case .overwrite:
                refresh(object, mergeChanges: true)
                guard let current else { continue }
                for slot in current.indices where Self.isSettable(slot, of: object) && object.primitiveValue(atSlot: slot) != current[slot] {
                    object.setAttributeValue(current[slot], atSlot: slot)
                }
                restoreToOnes(of: object, where: { slot in slot < toOnes.count && !Self.same(object.relationshipValues[slot], toOnes[slot]) }, to: { toOnes[$0] })
            }
        }
    }

    /// Whether the attribute in `slot` is loaded and one a context sets (the store computes a
    /// derived one).
    private static func isSettable(_ slot: Int, of object: ManagedObject) -> Bool {
        slot < object.loadedAttributeCount && !object.entity.attributes[slot].isDerived
    }

    /// Sets the to-one relationships of `object` for which `needed` holds to `value`, through the
    /// setter that keeps inverses in line.
    private func restoreToOnes(of object: ManagedObject, where needed: (Int) -> Bool, to value: (Int) -> RelationshipValue) {
        for relationship in object.entity.relationships where relationship.isToOne && !relationship.isTransient {
            let slot = relationship.slot
            guard slot < object.relationshipValues.count, needed(slot), case .toOne(let id) = value(slot) else { continue }
            try? object.setValue(id.map(self.object(with:)), forKey: relationship.name)
        }
    }
}
