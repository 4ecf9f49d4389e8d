/// Merging another context's save, so that objects and lists here show it.
extension ObjectContext {
    /// Brings registered objects up to date with a save made elsewhere: updated objects are reloaded
    /// (keeping this context's unsaved changes on top, as Core Data's merge does), deleted ones are
    /// forgotten unless changed here (saving those then reports a conflict), and to-many
    /// relationships reload on next use so they include inserted objects.
    ///
    ///     store.addObserver { changes in Task { @MainActor in viewContext.mergeChanges(from: changes) } }
    ///
    /// A write by another connection or process (`changes.isExternalWrite`) names no objects: every
    /// loaded object without unsaved changes is read again, and observers are told to look again.
    public func mergeChanges(from changes: ChangeSet) {
        guard !isSavingAsynchronously else { return afterAsynchronousSave { $0.mergeChanges(from: changes) } }
        prefetchedRows.removeAll()
        if changes.isExternalWrite { return mergeExternalWrite() }
        changes.forEachDeleted { id in
            guard let object = registeredObject(for: id), !inserted.contains(object) else { return }
            if updated.contains(object) || deleted.contains(object) { return }
            reregisterDeleted(object)
        }
        for (id, properties) in changes.updated {
            guard let object = registeredObject(for: id), object.isLoaded else { continue }
            // A change set without the names (history Core Data wrote without them) names none.
            refresh(object, mergeChanges: true, changedProperties: properties.isEmpty ? nil : properties)
        }
        let touched = Self.entityNumbers(touchedBy: changes)
        for object in registeredObjectList where object.isLoaded {
            let isUpdated = changes.updated[object.objectID] != nil
            for relationship in object.entity.relationships where relationship.isToMany {
                let slot = relationship.slot
                guard isUpdated || mayHaveChanged(relationship, touched: touched),
                      Self.same(object.relationshipValues[slot], object.savedRelationshipValues[slot]) else { continue }
                object.setSavedRelationshipValue(.unloaded, atSlot: slot)
            }
            for relationship in object.entity.relationships where relationship.isToOne {
                if case .toOne(let id?) = object.relationshipValues[relationship.slot], changes.deleted.contains(id),
                   Self.same(object.relationshipValues[relationship.slot], object.savedRelationshipValues[relationship.slot]) {
                    object.setSavedRelationshipValue(.toOne(nil), atSlot: relationship.slot)
                }
            }
        }
        guard !changeObservers.isEmpty else { return }
        var notification = takePendingChanges()
        notification.inserted.formUnion(changes.inserted)
        notification.updated.formUnion(changes.updated.keys)
        notification.deleted.formUnion(changes.deleted)
        notifyObservers(notification)
    }

    /// The entities of the objects a save inserted, updated or deleted.
    private static func entityNumbers(touchedBy changes: ChangeSet) -> Set<Int> {
        var numbers: Set<Int> = []
        changes.forEachInserted { numbers.insert($0.entityNumber) }
        changes.forEachDeleted { numbers.insert($0.entityNumber) }
        for id in changes.updated.keys { numbers.insert(id.entityNumber) }
        return numbers
    }

    /// Whether a save that touched objects of the `touched` entities may have changed the
    /// destinations of a to-many `relationship` of an object it did not update: only by inserting,
    /// deleting or updating (the inverse of) a destination, an object of the destination's entity
    /// or one of its subentities. A relationship it cannot have changed stays loaded.
    private func mayHaveChanged(_ relationship: RelationshipDescription, touched: Set<Int>) -> Bool {
        guard let destination = store.entity(number: relationship.destinationEntityNumber) else { return true }
        return touched.contains { destination.subtreeNumbers.contains($0) }
    }

    /// Merges transactions read from the store's persistent history (`PersistentStore
    /// .fetchHistory(after:)`), each as ``mergeChanges(from:)`` merges a save: only the objects
    /// they name are read again (Core Data's `mergeChanges(fromContextDidSave:)` of a transaction's
    /// `objectIDNotification()`).
    public func mergeChanges(fromHistory transactions: [HistoryTransaction]) {
        for transaction in transactions { mergeChanges(from: transaction.changeSet) }
    }

    /// Reads every loaded, unchanged object again; those whose row is gone are forgotten.
    private func mergeExternalWrite() {
        var notification = takePendingChanges()
        notification.invalidatesAll = true
        for object in registeredObjectList where object.isLoaded && object.changeFlags.isDisjoint(with: [.inserted, .updated, .deleted]) {
            let version = object.version
            var found = false
            object.changingValues {
                object.isLoaded = false
                found = (try? loadRow(of: object)) ?? false
            }
            guard found else {
                notification.deleted.insert(object.objectID)
                reregisterDeleted(object)
                continue
            }
            // Every save bumps `Z_OPT`: a row with the version read before is unchanged.
            if object.version != version { notification.updated.insert(object.objectID) }
        }
        notifyObservers(notification)
    }
}
