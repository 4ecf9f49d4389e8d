import Foundation
import GRDB

/// Saving: delete rules, validation, then one write transaction — primary keys from
/// `Z_PRIMARYKEY.Z_MAX`, rows inserted, changed rows updated only when their `Z_OPT` is the one this
/// context read (optimistic locking), join-table and order-key rows kept — and a `ChangeSet`
/// published to every context. A child context saves into its parent instead.
extension ObjectContext {
    /// Saves every change in one transaction — or, in a child context, moves them into the parent.
    /// On error nothing is written and the changes stay in the context.
    public func save() throws(SaveError) {
        guard hasChanges || !misuses.isEmpty else { return }
        prefetchedRows.removeAll()
        var failures = misuses + propagateDeletes()
        processPendingChanges()
        let toInsert = inserted.objects.filter { !deleted.contains($0) }
        let toUpdate = updated.objects.filter { !deleted.contains($0) && !inserted.contains($0) }
        let toDelete = deleted.objects.filter { !inserted.contains($0) }
        failures += validate(toInsert) + validate(toUpdate)
        guard failures.isEmpty else { throw .validation(failures) }
        if let parent { return try save(into: parent, toInsert: toInsert, toUpdate: toUpdate, toDelete: toDelete) }

        var writer = SaveWriter(context: self, toInsert: toInsert, toUpdate: toUpdate, toDelete: toDelete)
        do {
            try store.database.write { db in try writer.write(db) }
        } catch let abort as SaveWriter.Abort {
            switch abort {
            case .conflicts(let conflicts): throw .conflicts(conflicts)
            case .validation(let failures): throw .validation(failures)
            }
        } catch {
            // The commit failed after the history was written: its transaction number is free again.
            if let number = writer.historyTransaction { store.forgetOwnHistoryTransaction(number) }
            throw .database(message: "\(error)")
        }
        var changes = didSave(writer, toInsert: toInsert, toUpdate: toUpdate, toDelete: toDelete)
        let derived = applyDerivedValues(writer.derivedValues, to: &changes)
        if !changeObservers.isEmpty {
            notifyObservers(ObjectsDidChange(updated: derived, permanentIDs: writer.permanentIDs.dictionary))
        }
        if !writer.permanentIDs.isEmpty {
            for child in children { child.context?.adoptPermanentIDs(writer.permanentIDs) }
        }
        if !changes.isEmpty { store.publish(changes) }
    }

    /// Brings the objects in line with what the transaction wrote, and describes it.
    private func didSave(_ writer: SaveWriter, toInsert: [ManagedObject], toUpdate: [ManagedObject], toDelete: [ManagedObject]) -> ChangeSet {
        // One pass over each list: a save of many objects is bound by touching each object's memory.
        var changes = ChangeSet(insertedIDs: writer.permanentIDs.ids)
        for (index, object) in toUpdate.enumerated() {
            changes.updated[object.objectID] = writer.updatedKeys?[index] ?? changedKeys(of: object)
            object.version += 1
            object.keepValuesAsSaved()
        }
        for (object, permanent) in zip(toInsert, writer.permanentIDs.ids) {
            let old = object.objectID
            object.objectID = permanent
            reregister(object, from: old)
            noteSaved(old, as: permanent)
            object.version = 1
            object.keepValuesAsSaved()
        }
        // Only a relationship set since the last save can hold a temporary ID: without one, there is
        // no need to visit every registered object. Saved values hold one only if saved just now.
        if !writer.permanentIDs.isEmpty && relationshipsChanged {
            forEachRegisteredObject { object in
                guard object.isLoaded && !object.relationshipValues.isEmpty else { return }
                remap(&object.relationshipValues, writer.permanentIDs, keepingUnsaved: false)
                if object.savedRelationshipValuesIfChanged != nil { remap(&object.savedRelationshipValuesIfChanged!, writer.permanentIDs, keepingUnsaved: false) }
            }
        }
        relationshipsChanged = false
        var deletedIDs: [ObjectID] = []
        for object in deleted.objects {
            if !inserted.contains(object) { deletedIDs.append(object.objectID) }
            reregisterDeleted(object)
        }
        changes.setDeleted(deletedIDs)
        clearChanges()
        return changes
    }

    /// Puts the values the store's triggers computed into the registered objects, as saved values,
    /// and adds the rows to the change set; the IDs of the objects here that changed.
    private func applyDerivedValues(_ reports: [DerivedValueLog.Report], to changes: inout ChangeSet) -> Set<ObjectID> {
        var changedHere: Set<ObjectID> = []
        // A value computed several times in one save (a count per inserted row) ends as its last
        // report: the others were never seen, and notifying them would tell observers twice.
        var applied: Set<DerivedValueLog.ReportedValue> = []
        for report in reports.reversed() where applied.insert(report.reportedValue).inserted {
            guard let entity = store.entity(number: report.entityNumber), let attribute = entity.attribute(named: report.attribute)
            else { continue }
            let id = store.objectID(key: .permanent(report.primaryKey), entityNumber: report.entityNumber)
            guard !changes.deleted.contains(id) else { continue }
            if !changes.inserted.contains(id) { changes.updated[id, default: []].insert(attribute.name) }
            guard let object = registeredObject(for: id), object.isLoaded else { continue }
            let value = AttributeValue(report.value, as: attribute.type)
            if object.primitiveValue(atSlot: attribute.slot) != value { changedHere.insert(id) }
            object.setSavedAttributeValue(value, atSlot: attribute.slot)
        }
        return changedHere
    }

    /// The names of the properties whose values differ from the saved ones.
    func changedKeys(of object: ManagedObject) -> Set<String> {
        var keys: Set<String> = []
        for attribute in object.entity.attributes where object.attributeChanged(atSlot: attribute.slot) {
            keys.insert(attribute.name)
        }
        for relationship in object.entity.relationships
        where !Self.same(object.relationshipValues[relationship.slot], object.savedRelationshipValues[relationship.slot]) {
            keys.insert(relationship.name)
        }
        return keys
    }

    /// Replaces temporary IDs in `values` with their permanent ones; those without one are dropped
    /// (objects the save forgot), or kept when `keepingUnsaved` (a child's objects not saved yet).
    func remap(_ values: inout [RelationshipValue], _ permanentIDs: PermanentIDs, keepingUnsaved: Bool) {
        for index in values.indices {
            switch values[index] {
            case .toOne(let id?) where id.isTemporaryID:
                values[index] = .toOne(permanentIDs[id] ?? (keepingUnsaved ? id : nil))
            case .toMany(var list) where list.contains(where: \.isTemporaryID):
                for id in list.ids where id.isTemporaryID {
                    if let permanent = permanentIDs[id] { list.replace(id, with: permanent) } else if !keepingUnsaved { list.remove(id) }
                }
                values[index] = .toMany(list)
            default:
                break
            }
        }
    }
}
