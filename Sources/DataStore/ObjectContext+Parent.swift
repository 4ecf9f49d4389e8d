/// Child contexts: reading through the parent, and saving into it.
///
/// A child's faults take their values from the nearest ancestor that has the object (with its
/// unsaved changes), else from the store; its fetches judge the ancestors' unsaved changes in
/// memory as they judge its own. Its `save()` validates, applies delete rules and moves its
/// inserts, changes and deletes into the parent as if made there: nothing reaches the store until
/// the root context saves, and the parent's observers (results controllers) hear of it as of any
/// change. All contexts of a tree share one series of temporary IDs, so an object keeps its ID on
/// the way up; the root's save gives the children's objects their permanent IDs too.
extension ObjectContext {
    // MARK: Reading through the parent

    /// Fills `object` with the values of the nearest ancestor that has it: `false` when none has,
    /// and the store must be read.
    func fillFromParent(_ object: ManagedObject) -> Bool {
        guard let parent, let source = withIsolation(of: parent, { parent.valuesForChild(object.objectID) }) else { return false }
        object.setLoadedValues(source.attributes, source.relationships)
        object.version = source.version
        object.faultState = .fetched
        return true
    }

    /// The destinations of a to-many relationship as the nearest ancestor that has `object` has them.
    func destinationsFromParent(of object: ManagedObject, slot: Int) -> ObjectIDList? {
        guard let parent else { return nil }
        return withIsolation(of: parent) { parent.destinationIDsForChild(object.objectID, slot: slot) }
    }

    /// The values of this context's object for `id`, loaded, else the nearest ancestor's; `nil`
    /// when none has one. Each context's values are read where that context is used.
    private func valuesForChild(_ id: ObjectID) -> (attributes: AttributeValues, relationships: [RelationshipValue], version: Int64)? {
        if let object = registeredObject(for: id) {
            object.fulfillIfNeeded()
            return (object.currentAttributeValues, object.relationshipValues, object.version)
        }
        guard let parent else { return nil }
        return withIsolation(of: parent) { parent.valuesForChild(id) }
    }

    /// The destinations of a to-many of this context's object for `id`, else the nearest ancestor's.
    private func destinationIDsForChild(_ id: ObjectID, slot: Int) -> ObjectIDList? {
        if let object = registeredObject(for: id) {
            object.fulfillIfNeeded()
            return destinationIDs(of: object, slot: slot)
        }
        guard let parent else { return nil }
        return withIsolation(of: parent) { parent.destinationIDsForChild(id, slot: slot) }
    }

    // MARK: Unsaved changes of the chain

    /// The unsaved changes a fetch must judge in memory.
    func pendingChanges() -> PendingChanges {
        guard parent != nil else {
            return PendingChanges(
                inserted: inserted.objects, updated: updated.objects, deleted: [],
                isChanged: { $0.changeFlags.contains(.updated) || $0.changeFlags.contains(.deleted) },
                isDeleted: { $0.changeFlags.contains(.deleted) })
        }
        let ids = pendingChangeIDs()
        let updatedObjects = ids.updated.map(object(with:))
        // Loaded now from the ancestor that changed them, so that a fetch never fills them from
        // the store's rows. Deleted ones too: a sort or predicate still reaches them through the
        // relationships that hold them until the root saves.
        let deletedObjects = ids.deleted.map(object(with:))
        for object in updatedObjects + deletedObjects { object.fulfillIfNeeded() }
        let changed = ids.deleted.union(ids.updated)
        return PendingChanges(
            inserted: ids.inserted.map(object(with:)), updated: updatedObjects, deleted: deletedObjects,
            isChanged: { changed.contains($0.objectID) }, isDeleted: { ids.deleted.contains($0.objectID) })
    }

    /// The IDs of the objects inserted, changed and deleted here or in an ancestor; the nearest
    /// context's word counts.
    private func pendingChangeIDs() -> (inserted: [ObjectID], updated: [ObjectID], deleted: Set<ObjectID>) {
        var (insertedIDs, updatedIDs, deletedIDs) = parent.map { parent in withIsolation(of: parent) { parent.pendingChangeIDs() } } ?? ([], [], [])
        deletedIDs.formUnion(deleted.objects.lazy.map(\.objectID))
        insertedIDs += inserted.objects.map(\.objectID)
        insertedIDs.removeAll { deletedIDs.contains($0) }
        let insertedSet = Set(insertedIDs)
        var seen: Set<ObjectID> = []
        updatedIDs = (updatedIDs + updated.objects.map(\.objectID)).filter {
            !insertedSet.contains($0) && !deletedIDs.contains($0) && seen.insert($0).inserted
        }
        return (insertedIDs, updatedIDs, deletedIDs)
    }

    // MARK: Saving into the parent

    /// Moves the changes into the parent, once validated: conflicts when the parent changed or
    /// deleted an object since this context read it, and nothing moves.
    func save(into parent: ObjectContext, toInsert: [ManagedObject], toUpdate: [ManagedObject], toDelete: [ManagedObject]) throws(SaveError) {
        // The parent's half where the parent is used (this context waits meanwhile); this
        // context's bookkeeping here, where its observers and hooks expect it.
        let (settled, deletedInParent) = try withIsolation(of: parent) { () throws(SaveError) in
            try moveChanges(into: parent, toInsert: toInsert, toUpdate: toUpdate, toDelete: toDelete)
        }
        // The parent holds these values now: they are what this context read last.
        for object in toInsert { object.keepValuesAsSaved() }
        for object in toUpdate { object.keepValuesAsSaved() }
        for object in deleted.objects { reregisterDeleted(object) }
        relationshipsChanged = false
        clearChanges()
        // An object whose conflict was settled shows the parent's values as they are now.
        for object in toUpdate where settled.contains(object.objectID) {
            if deletedInParent.contains(object.objectID) { reregisterDeleted(object) } else { refresh(object, mergeChanges: false) }
        }
    }

    /// Makes the changes in `parent` and tells its observers; the objects whose conflicts the
    /// merge policy settled, and those of them the parent deleted.
    private func moveChanges(
        into parent: ObjectContext, toInsert: [ManagedObject], toUpdate: [ManagedObject], toDelete: [ManagedObject]
    ) throws(SaveError) -> (settled: Set<ObjectID>, deletedInParent: Set<ObjectID>) {
        let conflicts = (toUpdate + toDelete).compactMap { parent.conflict(with: $0) }
        guard conflicts.isEmpty || mergePolicy.builtIn != .error else { throw .conflicts(conflicts) }
        // The merge policy settles a conflict with the parent as one with the store: the
        // parent's values stand for the store's row.
        let settled = Dictionary(conflicts.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
        // Deleted in the parent, an object stays deleted.
        let deletedInParent = Set(conflicts.filter { $0.storeVersion == nil }.map(\.objectID))
        for object in toInsert { parent.insertCopy(of: object) }
        for object in toUpdate where !deletedInParent.contains(object.objectID) {
            guard let conflict = settled[object.objectID] else {
                parent.copyChanges(of: object)
                continue
            }
            guard case .parentContext(let changedThere) = conflict.origin else { continue }
            // A custom policy's conflicts with the parent are settled by its base.
            switch mergePolicy.builtIn {
            case .error, .rollback, .custom: break
            case .mergeByPropertyObjectTrump: parent.copyChanges(of: object)
            case .mergeByPropertyStoreTrump: parent.copyChanges(of: object, skipping: Set(changedThere))
            case .overwrite: parent.copyChanges(of: object, all: true)
            }
        }
        for object in toDelete where !deletedInParent.contains(object.objectID) {
            parent.delete(parent.object(with: object.objectID))
        }
        parent.processPendingChanges()
        return (Set(settled.keys), deletedInParent)
    }

    /// The conflict a child's save of `object` meets here: the object was deleted here, or its
    /// values here differ from those the child read.
    private func conflict(with object: ManagedObject) -> SaveError.Conflict? {
        guard let current = registeredObject(for: object.objectID) else { return nil }
        guard !isDeleted(current) else {
            return SaveError.Conflict(objectID: object.objectID, expectedVersion: object.version, storeVersion: nil, origin: .parentContext(changedProperties: []))
        }
        guard current.isLoaded, object.isLoaded else { return nil }
        let entity = object.entity
        let read = object.savedAttributeValues
        var changed = entity.attributes.filter { $0.slot < read.count && current.primitiveValue(atSlot: $0.slot) != read[$0.slot] }.map(\.name)
        let readRelationships = object.savedRelationshipValues
        for relationship in entity.relationships {
            let mine = readRelationships[relationship.slot], theirs = current.relationshipValues[relationship.slot]
            if case .unloaded = mine { continue }
            if case .unloaded = theirs { continue }
            if !Self.same(mine, theirs) { changed.append(relationship.name) }
        }
        guard !changed.isEmpty else { return nil }
        return SaveError.Conflict(objectID: object.objectID, expectedVersion: object.version, storeVersion: current.version, origin: .parentContext(changedProperties: changed))
    }

    /// Inserts here the object a child inserted, with its ID and values.
    private func insertCopy(of object: ManagedObject) {
        if let existing = registeredObject(for: object.objectID) {
            // A delete saved into this context and undone in the child: the same object again.
            if isDeleted(existing) { undelete(existing) }
            return copyChanges(of: object, into: existing, all: true)
        }
        let copy = object.entity.objectClass.init(ObjectCreation(objectID: object.objectID, context: self))
        relationshipsChanged = true
        registerInserted(copy, values: object.currentAttributeValues, relationships: object.relationshipValues)
    }

    /// Makes here the changes a child made to `object` (all its values, with `all`), but for the
    /// properties `skipping` names.
    private func copyChanges(of object: ManagedObject, all: Bool = false, skipping: Set<String> = []) {
        let target = self.object(with: object.objectID)
        target.fulfillIfNeeded()
        copyChanges(of: object, into: target, all: all, skipping: skipping)
    }

    /// Sets `target`'s values that differ in `object` (all of them, or those `object` changed), as
    /// changes made here, but for the properties `skipping` names.
    private func copyChanges(of object: ManagedObject, into target: ManagedObject, all: Bool, skipping: Set<String> = []) {
        // Derived values are the store's to compute: copying all of them would set them here.
        for attribute in object.entity.attributes
        where (all ? !attribute.isDerived : object.attributeChanged(atSlot: attribute.slot)) && !skipping.contains(attribute.name) {
            target.setAttributeValue(object.primitiveValue(atSlot: attribute.slot), atSlot: attribute.slot)
        }
        for relationship in object.entity.relationships where !skipping.contains(relationship.name) {
            let slot = relationship.slot, value = object.relationshipValues[slot]
            if case .unloaded = value { continue }
            guard all || !Self.same(value, object.savedRelationshipValues[slot]) else { continue }
            // Loaded first, so that an undo here restores the list rather than a fault of it.
            if relationship.isToMany { _ = destinationIDs(of: target, slot: slot) }
            if !Self.same(value, target.relationshipValues[slot]) { setRelationshipValue(value, of: target, slot: slot) }
        }
    }

    // MARK: Permanent IDs

    /// Gives this context's objects, and its children's, the permanent IDs a save of the root
    /// gave them; IDs of objects not saved yet stay temporary.
    func adoptPermanentIDs(_ ids: PermanentIDs) {
        var renamed: [ObjectID: ObjectID] = [:]
        for object in registeredObjectList where object.objectID.isTemporaryID {
            guard let permanent = ids[object.objectID] else { continue }
            let old = object.objectID
            object.objectID = permanent
            reregister(object, from: old)
            renamed[old] = permanent
        }
        forEachRegisteredObject { object in
            guard object.isLoaded, !object.relationshipValues.isEmpty else { return }
            remap(&object.relationshipValues, ids, keeping: { _ in true })
            if object.savedRelationshipValuesIfChanged != nil { remap(&object.savedRelationshipValuesIfChanged!, ids, keeping: { _ in true }) }
        }
        if !renamed.isEmpty { notifyObservers(ObjectsDidChange(permanentIDs: renamed)) }
        tellChildren(ofPermanentIDs: ids)
    }
}

/// The unsaved changes of a context and its ancestors, as objects of the context.
struct PendingChanges {
    let inserted: [ManagedObject]
    let updated: [ManagedObject]
    /// In a child, the objects its ancestors deleted, loaded from them and held while the fetch
    /// runs (a context keeps unchanged objects weakly): a sort or predicate that reaches one
    /// through a relationship reads the ancestor's values, never the store's row.
    let deleted: [ManagedObject]
    /// Whether an object is changed or deleted: its row in the store is out of date.
    let isChanged: (ManagedObject) -> Bool
    let isDeleted: (ManagedObject) -> Bool
}

/// A child context, not retained by its parent.
struct WeakContext {
    weak var context: ObjectContext?
}
