import Foundation
import GRDB

/// Saving: delete rules, validation, then one write transaction — primary keys from
/// `Z_PRIMARYKEY.Z_MAX`, rows inserted, changed rows updated only when their `Z_OPT` is the one this
/// context read (optimistic locking), join-table and order-key rows kept — and a `ChangeSet`
/// published to every context. A child context saves into its parent instead.
extension ObjectContext {
    /// Saves every change in one transaction — or, in a child context, moves them into the parent.
    /// On error nothing is written and the changes stay in the context. While an asynchronous
    /// save of the context writes, throws `saveInProgress`: await that save, or save with
    /// `try await save()`, which waits for it.
    public func save() throws(SaveError) {
        guard hasChanges || !misuses.isEmpty else { return }
        guard !isTopContextSavingAsynchronously else { throw .saveInProgress }
        for attempt in 1... {
            guard let save = try prepareSave(firstAttempt: attempt == 1) else { return }
            let result: SaveWriter.Result
            do {
                result = try coordinator.write(save.changes)
            } catch {
                let failure = saveFailed(save, error)
                guard attempt < Self.mergeAttempts, try settled(failure) else { throw failure }
                guard hasChanges else { return }
                continue
            }
            return didSave(save, result, valuesMayHaveChanged: false)
        }
    }

    /// A save's objects, and the values it writes of them.
    struct PreparedSave {
        let toInsert: [ManagedObject]
        let toUpdate: [ManagedObject]
        /// Objects tracked as changed whose values are the saved ones.
        let unchanged: [ManagedObject]
        let toDelete: [ManagedObject]
        /// Every object deleted, inserted ones included: each is forgotten once the save is done.
        let deletedObjects: [ManagedObject]
        /// Whether a relationship was set before the save: its values may hold temporary IDs.
        let relationshipsChanged: Bool
        let changes: SaveChanges
    }

    /// Applies the delete rules, validates, and reads the values to write; `nil` when the changes
    /// went into the parent context instead. `firstAttempt`: the first try of this save, which
    /// tells the objects (`willSave`); a try after a merge does not tell them again.
    func prepareSave(firstAttempt: Bool) throws(SaveError) -> PreparedSave? {
        // Constraint clashes are settled where the objects meet the store, not in a parent context.
        if parent == nil { try settleUniquenessClashes() }
        prefetchedRows.removeAll()
        var deleteFailures = propagateDeletes()
        if firstAttempt && store.hasLifecycleEntities {
            let saved = inserted.objects.filter { !deleted.contains($0) } + updated.objects.filter { !deleted.contains($0) && !inserted.contains($0) }
                + deleted.objects.filter { !inserted.contains($0) }
            for object in saved { object.lifecycle?.willSave() }
            // What `willSave` deleted follows its delete rules too.
            deleteFailures = propagateDeletes()
        }
        var failures = misuses + deleteFailures
        processPendingChanges()
        let toInsert = inserted.objects.filter { !deleted.contains($0) }
        let changed = updated.objects.filter { !deleted.contains($0) && !inserted.contains($0) }
        let toDelete = deleted.objects.filter { !inserted.contains($0) }
        let validatesNow = deferredValidation == nil
        if !validatesNow { deferValidation(of: toInsert + changed, deleting: toDelete) }
        if let parent {
            if validatesNow { failures += validate(toInsert) + validate(changed) }
            guard failures.isEmpty else { throw .validation(failures) }
            try save(into: parent, toInsert: toInsert, toUpdate: changed, toDelete: toDelete)
            if store.hasLifecycleEntities { for object in toInsert + changed + toDelete { object.lifecycle?.didSave() } }
            return nil
        }
        // Each object's values are read once, into its row, and validated there; a fault is
        // filled first, as validating it would fill it.
        var values = AttributeValues.Writer(valuesPerBuffer: 4096)
        let inserts = toInsert.map { object in
            object.fulfillIfNeeded()
            return SaveChanges.Row(inserting: object, values: &values)
        }
        if validatesNow {
            for (object, row) in zip(toInsert, inserts) { validate(object, values: row.attributes, into: &failures) }
        }
        // An object changed and changed back has nothing to write: its row and `Z_OPT` stay.
        var toUpdate: [ManagedObject] = [], updates: [SaveChanges.Row] = [], unchanged: [ManagedObject] = []
        var changedKeys = ChangedKeys()
        for object in changed {
            object.fulfillIfNeeded()
            let current = object.currentAttributeValues(writingInto: &values)
            if validatesNow { validate(object, values: current, into: &failures) }
            let changedSlots = object.changedAttributeSlots(current: current)
            let keys = changedKeys.keys(of: object, changedSlots: changedSlots)
            if keys.isEmpty {
                unchanged.append(object)
            } else {
                toUpdate.append(object)
                updates.append(SaveChanges.Row(updating: object, current: current, changedSlots: changedSlots, changedKeys: keys))
            }
        }
        guard failures.isEmpty else { throw .validation(failures) }
        let changes = SaveChanges(
            inserted: inserts, updated: updates, deleted: toDelete.map(SaveChanges.Row.init(deleting:)),
            author: transactionAuthor, contextName: name)
        let save = PreparedSave(
            toInsert: toInsert, toUpdate: toUpdate, unchanged: unchanged, toDelete: toDelete, deletedObjects: deleted.objects,
            relationshipsChanged: relationshipsChanged, changes: changes)
        // Relationships set from now on, while an asynchronous save waits, are the next save's.
        relationshipsChanged = false
        return save
    }

    /// The save's error for what its write threw; its changes stay, to be saved again.
    func saveFailed(_ save: PreparedSave, _ error: any Error) -> SaveError {
        if save.relationshipsChanged { relationshipsChanged = true }
        return switch error {
        case SaveWriter.Abort.conflicts(let conflicts): .conflicts(conflicts)
        case SaveWriter.Abort.validation(let failures): .validation(failures)
        case let unknown as CommitOutcomeUnknown: .commitOutcomeUnknown(message: unknown.message)
        default: .database(message: "\(error)")
        }
    }

    /// Brings the objects in line with what the save wrote, then tells this context's observers,
    /// its children and the store's observers. `valuesMayHaveChanged` when the objects may have
    /// changed since the save read them: those changes stay unsaved changes.
    func didSave(_ save: PreparedSave, _ result: SaveWriter.Result, valuesMayHaveChanged: Bool) {
        var changes = apply(save, result, valuesMayHaveChanged: valuesMayHaveChanged)
        if store.hasLifecycleEntities {
            for object in save.toInsert + save.toUpdate + save.unchanged + save.toDelete { object.lifecycle?.didSave() }
        }
        completedSaves += 1
        let derived = applyDerivedValues(result.derivedValues, to: &changes)
        if !changeObservers.isEmpty {
            notifyObservers(ObjectsDidChange(updated: derived, permanentIDs: result.permanentIDs.dictionary))
        }
        if !result.permanentIDs.isEmpty { tellChildren(ofPermanentIDs: result.permanentIDs) }
        changes.origin = identifier
        if !changes.isEmpty { coordinator.publish(changes) }
        let waiting = afterNextSave
        afterNextSave.removeAll()
        for work in waiting { work() }
    }

    /// Brings the objects in line with what the transaction wrote, and describes it.
    private func apply(_ save: PreparedSave, _ result: SaveWriter.Result, valuesMayHaveChanged: Bool) -> ChangeSet {
        let permanentIDs = result.permanentIDs
        // One pass over each list: a save of many objects is bound by touching each object's memory.
        var changes = ChangeSet(insertedIDs: permanentIDs.ids)
        if valuesMayHaveChanged { clearChanges(savedBy: save) } else { clearChanges() }
        // Room made once: grown one entry at a time, the table was rebuilt a dozen times.
        changes.updated.reserveCapacity(save.toUpdate.count)
        for (object, row) in zip(save.toUpdate, save.changes.updated) {
            changes.updated[object.objectID] = row.changedKeys
            object.version = row.version + 1  // the `Z_OPT` the save wrote
            keepAsSaved(row, in: object, valuesMayHaveChanged)
        }
        let unchanged = save.unchanged.filter { $0.isLoaded && (!valuesMayHaveChanged || changedKeys(of: $0).isEmpty) }
        for object in unchanged { object.keepValuesAsSaved() }
        forgetChanges(of: unchanged)
        for (index, object) in save.toInsert.enumerated() where object.context === self {
            let old = object.objectID, permanent = permanentIDs.ids[index]
            object.objectID = permanent
            reregister(object, from: old)
            noteSaved(old, as: permanent)
            object.version = 1
            keepAsSaved(save.changes.inserted[index], in: object, valuesMayHaveChanged)
        }
        // Only a relationship set since the last save can hold a temporary ID: without one, there is
        // no need to visit every registered object. Saved values hold one only if saved just now.
        if !permanentIDs.isEmpty && (save.relationshipsChanged || relationshipsChanged) {
            // Objects inserted while an asynchronous save waited are not saved yet, but stay.
            let unsaved: (ObjectID) -> Bool = valuesMayHaveChanged ? { self.registeredObject(for: $0)?.isInserted == true } : { _ in false }
            forEachRegisteredObject { object in
                guard object.isLoaded && !object.relationshipValues.isEmpty else { return }
                remap(&object.relationshipValues, permanentIDs, keeping: unsaved)
                if object.savedRelationshipValuesIfChanged != nil { remap(&object.savedRelationshipValuesIfChanged!, permanentIDs, keeping: { _ in false }) }
            }
        }
        changes.setDeleted(save.toDelete.map(\.objectID))
        for object in save.deletedObjects where object.context === self { reregisterDeleted(object) }
        return changes
    }

    /// Makes the values a save wrote of `object` its saved values. When they `mayHaveChanged`
    /// since the save read them, those that did stay unsaved changes, and the object stays changed.
    private func keepAsSaved(_ row: SaveChanges.Row, in object: ManagedObject, _ mayHaveChanged: Bool) {
        guard mayHaveChanged, object.isLoaded else { return object.keepValuesAsSaved() }
        let attributesChanged = SavedAttributeValues(saved: row.attributes, current: object.primitiveValue(atSlot:))
        // A to-many list the save left unloaded is as the store had it: loaded since, its saved
        // value is what was read. One unloaded now is read again when used.
        var relationships = row.relationships
        for slot in relationships.indices {
            if case .unloaded = object[observedRelationship: slot] {
                relationships[slot] = .unloaded
            } else if case .unloaded = relationships[slot] {
                relationships[slot] = object.savedRelationshipValues[slot]
            }
        }
        let relationshipsKept = zip(object.relationshipValues, relationships).allSatisfy(Self.same)
        object.keepValuesAsSaved()
        if !attributesChanged.isEmpty { object.savedAttributeValuesIfChanged = attributesChanged }
        if !relationshipsKept { object.savedRelationshipValuesIfChanged = relationships }
        if !(attributesChanged.isEmpty && relationshipsKept) { stillChanged(object) }
    }

    /// Puts the values the store's triggers computed into the registered objects, as saved values,
    /// and adds the rows to the change set; the IDs of the objects here that changed.
    private func applyDerivedValues(_ reports: [DerivedValueLog.Report], to changes: inout ChangeSet) -> Set<ObjectID> {
        var changedHere: Set<ObjectID> = []
        // A value computed several times in one save (a count per inserted row) ends as its last
        // report: the others were never seen, and notifying them would tell observers twice.
        var applied: Set<DerivedValueLog.ReportedValue> = []
        for report in reports.reversed() where applied.insert(report.reportedValue).inserted {
            guard let described = store.entity(number: report.entityNumber), let attribute = described.attribute(named: report.attribute)
            else { continue }
            // The store holding the entity computed the value: its objects are that store's.
            let store = store(holding: described)
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
        var keys = ChangedKeys()
        return keys.keys(of: object, changedSlots: object.changedAttributeSlots(current: object.currentAttributeValues))
    }

    /// Replaces temporary IDs in `values` with their permanent ones; those without one are dropped
    /// (objects the save forgot), unless `keeping` them (objects not saved yet).
    func remap(_ values: inout [RelationshipValue], _ permanentIDs: PermanentIDs, keeping unsaved: (ObjectID) -> Bool) {
        for index in values.indices {
            if let remapped = Self.replacingTemporaryIDs(in: values[index], with: { permanentIDs[$0] }, keeping: unsaved) {
                values[index] = remapped
            }
        }
    }

    /// `value` with each temporary ID replaced by `permanent(id)`; one without is dropped unless
    /// `kept`. `nil` when `value` holds no temporary ID: most hold none, and stay as they are.
    static func replacingTemporaryIDs(
        in value: RelationshipValue, with permanent: (ObjectID) -> ObjectID?, keeping kept: (ObjectID) -> Bool
    ) -> RelationshipValue? {
        switch value {
        case .toOne(let id?) where id.isTemporaryID:
            return .toOne(permanent(id) ?? (kept(id) ? id : nil))
        case .toMany(var list) where list.contains(where: \.isTemporaryID):
            for id in list.ids where id.isTemporaryID {
                if let saved = permanent(id) { list.replace(id, with: saved) } else if !kept(id) { list.remove(id) }
            }
            return .toMany(list)
        default:
            return nil
        }
    }
}
