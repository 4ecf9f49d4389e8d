import Foundation
import GRDB

/// A scratchpad of objects on a store: fetch, change, insert and delete objects, then `save()` them
/// in one transaction — or `rollback()`.
///
/// One object per row (uniquing): asking twice for the same ID gives the same object. Objects start
/// as faults and load their row when first read. A context and its objects stay on the isolation
/// that made them (the type is not `Sendable`); pass `ObjectID`s between contexts, or use a
/// `BackgroundContext`.
///
///     let context = store.newContext()
///     let book = Book(context: context)
///     book.title = "Persuasion"
///     try context.save()
///
/// A child context (`newChildContext()`) works on top of its parent: it reads the parent's unsaved
/// changes, and its `save()` moves its own into the parent, not the store — an editing screen's
/// scratchpad, discarded to cancel.
public final class ObjectContext {
    /// The stores the context reads and writes, and which holds each entity's objects.
    public let coordinator: PersistentStoreCoordinator
    /// The store the context reads and writes; with a coordinator of several stores, the first
    /// (each object's is `coordinator.persistentStore(of:)`'s answer).
    public let store: PersistentStore
    /// Whether ``store`` holds every entity: then no question of which store needs asking.
    let hasOneStore: Bool
    /// The context a `save()` moves changes into; `nil` when saves go to the store.
    public let parent: ObjectContext?
    /// The context at the top of the parent chain, when it is not this one: it hands out the
    /// temporary keys of the whole tree, so that an object keeps its ID when a child's save moves it
    /// into the parent.
    let root: ObjectContext?
    /// The context at the top of the parent chain, whose saves write to the store.
    var topContext: ObjectContext { root ?? self }
    /// Child contexts, not retained: a root's save gives their objects their permanent IDs.
    var children: [WeakContext] = []
    /// The context's name, recorded with each save in the store's persistent history.
    public var name: String?
    /// Who saves, recorded with each save in the store's persistent history, so that a reader can
    /// tell its own changes from others' (`"app"`, `"widget"`, `"sync"`).
    public var transactionAuthor: String?
    /// How a save settles conflicts with what other writers saved since this context read the
    /// objects, and inserted objects that clash on a uniqueness constraint (the upsert: merged
    /// into the object they clash with, which keeps its identity, and forgotten): `.error`, the
    /// default, fails the save (``MergePolicy``).
    public var mergePolicy: MergePolicy = .error

    // The registry and change sets are used on the context's isolation only, never across an
    // overlapping access, and touched for every fetched row and every property set: no per-access
    // exclusivity checks.

    /// The isolation the context is used on, where merges of other contexts' saves run. Weak: a
    /// `BackgroundContext` holds its context.
    weak var isolation: (any Actor)?
    /// Tells this context's change sets from others' (`ChangeSet.origin`).
    let identifier = ObjectContext.identifiers.withLock { value in
        value += 1
        return value
    }
    private static let identifiers = Locked<UInt64>(0)
    /// The store observer and the task that merge other saves, while
    /// `automaticallyMergesChangesFromParent` is on.
    var following: (tokens: [UInt64], task: Task<Void, Never>?)?

    /// Registered objects by ID, not retained.
    @exclusivity(unchecked) private var registry = ObjectRegistry()
    /// Changed objects are held strongly until saved or rolled back.
    @exclusivity(unchecked) private(set) var inserted = ObjectSet(.inserted)
    @exclusivity(unchecked) private(set) var updated = ObjectSet(.updated)
    @exclusivity(unchecked) private(set) var deleted = ObjectSet(.deleted)
    /// Problems found while changing objects (a stale generated key), reported by the next save.
    private(set) var misuses: [ValidationFailure] = []
    @exclusivity(unchecked) private var nextTemporaryKey: UInt64 = 0
    /// Temporary keys taken from the root and not handed out yet (a context apart from its root).
    private var temporaryKeyBlock: Range<UInt64> = 0..<0
    /// Permanent IDs an ancestor on another isolation gave by saving, not yet taken here.
    let permanentIDNotices = Locked<[PermanentIDs]>([])
    /// The `Z_PK` each saved insert got, by its temporary key (0 for keys not saved): a temporary
    /// ID handed out before a save — in a change report, say — still finds its object after it.
    /// Temporary keys count up from 1, so an array holds them in 8 bytes each, from
    /// `firstSavedTemporaryKey` on.
    @exclusivity(unchecked) private var savedTemporaryKeys: [Int64] = []
    private var firstSavedTemporaryKey: UInt64 = 0
    /// Whether a relationship was set since the last save, and may hold a temporary ID that the
    /// save must replace with a permanent one.
    var relationshipsChanged = false
    /// When set, saves do not refuse objects that break the model's rules but note them here, to
    /// be judged once every object is linked: a mapping migration's batches, which Core Data
    /// validates at the end. An object that a later save finds valid, or deletes, leaves.
    var deferredValidation: DeferredValidation?
    /// Whether an asynchronous save is writing this context's changes: other saves and reads of
    /// the context wait for it to end, or throw when they cannot wait.
    var isSavingAsynchronously = false
    /// The asynchronous saves and reads waiting for that save to end.
    var waitingForSave: [CheckedContinuation<Void, Never>] = []
    /// Undo, redo, rollback, reset, refreshes and merges called while that save writes, run when
    /// it ends: they compare objects with their saved values, which the save is replacing.
    var deferredUntilSaved: [(ObjectContext) -> Void] = []
    /// How many saves this context has made: an asynchronous read that sees it change while it
    /// waits for its rows reads them again.
    var completedSaves = 0
    /// Work waiting for this context's next save to the store: results controllers whose list
    /// depends on rows that its unsaved changes will rewrite (a fetch in their predicate).
    var afterNextSave: [() -> Void] = []
    /// Rows a prefetch read, for objects nobody may hold: a fault of one fills from here, not from
    /// the store (Core Data's row cache). Dropped by a refresh of the object, and all at once by a
    /// save, a merge or a reset, which may change them.
    var prefetchedRows: [ObjectID: PrefetchedRow] = [:]
    /// Reads this context's queries instead of the store's connections: the context of a batch
    /// request reads inside the request's transaction, which holds a connection already.
    var transactionReader: ((SQLFragment) throws -> ReadRows)?
    /// Destinations of to-one relationships made lately, kept alive (see `RecentlyReachedObjects`).
    private var recentlyReached = RecentlyReachedObjects()
    /// Objects changed since observers were last told; tracked only while someone observes.
    @exclusivity(unchecked) var unprocessed = ObjectSet(.unprocessed)
    @exclusivity(unchecked) var changeObservers: [UInt64: (ObjectsDidChange) -> Void] = [:]
    var nextChangeObserver: UInt64 = 0

    /// Tells the reads of objects without a registrar that observation tracks from the others.
    let observationProbe = ObservationTrackingProbe()

    // Read by every generated setter, always on the context's isolation: unchecked, as the
    // object's own fields are.
    /// Records every change for `undo()`, when set (Core Data's `undoManager`); `nil` by default,
    /// which records nothing.
    @exclusivity(unchecked) public var undoManager: UndoManager?

    /// A context on `store`, for use on `isolation` — by default the caller's: the main actor for
    /// a view context, or none for a context one task or thread owns.
    public convenience init(store: PersistentStore, isolation: (any Actor)? = #isolation) {
        self.init(coordinator: PersistentStoreCoordinator(store: store), isolation: isolation)
    }

    /// A context on the stores of `coordinator`, for use on `isolation`.
    public init(coordinator: PersistentStoreCoordinator, isolation: (any Actor)? = #isolation) {
        self.coordinator = coordinator
        store = coordinator.persistentStores[0]
        hasOneStore = coordinator.onlyStore != nil
        self.isolation = isolation
        parent = nil
        root = nil
    }

    /// A child of `parent`, on the parent's isolation: it sees the parent's unsaved changes, and its
    /// `save()` moves its changes into the parent.
    public convenience init(parent: ObjectContext) {
        self.init(parent: parent, isolation: parent.isolation)
    }

    /// A child, on the caller's isolation (the main actor, say), of the context of `parent` — a
    /// main-queue child of a private-queue context, as apps that save from a background root
    /// context arrange them. It reads its parent and saves into it on the parent's queue,
    /// waiting for it; see `BackgroundContext.init(parent:)` for the other way round.
    public convenience init(parent: BackgroundContext, isolation: (any Actor)? = #isolation) {
        precondition(IsolationHop.canReach(isolation), "a child of a BackgroundContext is used on the main actor or another BackgroundContext's queue")
        self.init(parent: parent.context, isolation: isolation)
    }

    /// A child of `parent` used on `isolation`; the parent learns of it on its own isolation.
    init(parent: ObjectContext, isolation: (any Actor)?) {
        coordinator = parent.coordinator
        store = parent.store
        hasOneStore = parent.hasOneStore
        self.isolation = isolation
        self.parent = parent
        root = parent.root ?? parent
        IsolationHop.run(on: parent.isolation) {
            parent.children.removeAll { $0.context == nil }
            parent.children.append(WeakContext(context: self))
        }
    }

    /// A new child of this context (see `init(parent:)`).
    public func newChildContext() -> ObjectContext {
        ObjectContext(parent: self)
    }

    deinit {
        if let following { stopFollowing(following) }
        // Objects outliving their context see `context == nil`, never a dangling reference.
        registry.forEach { $0.context = nil }
    }

    // MARK: Changes

    /// Whether any object was inserted, changed or deleted since the last save.
    public var hasChanges: Bool { !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty }

    /// Objects inserted and not saved yet, in insertion order.
    public var insertedObjects: [ManagedObject] { inserted.objects }

    /// Saved objects with unsaved changes.
    public var updatedObjects: [ManagedObject] { updated.objects }

    /// Objects deleted since the last save.
    public var deletedObjects: [ManagedObject] { deleted.objects }

    func isInserted(_ object: ManagedObject) -> Bool { inserted.contains(object) }
    func isUpdated(_ object: ManagedObject) -> Bool { updated.contains(object) }
    func isDeleted(_ object: ManagedObject) -> Bool { deleted.contains(object) }

    /// Whether this context or one of its ancestors has unsaved changes, which fetches must judge
    /// in memory.
    var hasPendingChanges: Bool { hasChanges || parent.map { parent in withIsolation(of: parent) { parent.hasPendingChanges } } == true }

    /// Records that `object`'s values changed.
    func didChange(_ object: ManagedObject) {
        if !inserted.contains(object) { updated.insert(object) }
        if !changeObservers.isEmpty { unprocessed.insert(object) }
    }

    func recordMisuse(_ failure: ValidationFailure) {
        misuses.append(failure)
    }

    /// The misuses recorded so far, forgetting them.
    func takeMisuses() -> [ValidationFailure] {
        defer { misuses.removeAll() }
        return misuses
    }

    // MARK: Inserting and deleting

    /// Inserts a new object of the entity named `name`, of the entity's class.
    public func insertObject(entityName name: String) throws(ContextError) -> ManagedObject {
        guard let entity = try insertableEntity(named: name) else { throw .unknownEntity(name) }
        return insertObject(of: entity)
    }

    /// Inserts a new object of `type`'s entity.
    public func insert<T: ManagedObject>(_ type: T.Type) throws(ContextError) -> T {
        guard let entity = try insertableEntity(named: type.entityName) else { throw .unknownEntity(type.entityName) }
        guard let object = insertObject(of: entity) as? T else { throw .classMismatch(entity: entity.name, type: "\(type)") }
        return object
    }

    /// The entity named `name` as the store that will hold its objects describes it; `nil` when the
    /// model has no such entity.
    private func insertableEntity(named name: String) throws(ContextError) -> EntityDescription? {
        if let entity = hasOneStore ? store.entity(named: name) : coordinator.entity(named: name) { return entity }
        guard store.entity(named: name) == nil else { throw .noStore(entity: name) }
        return nil
    }

    func insertObject(of entity: EntityDescription) -> ManagedObject {
        let object = entity.objectClass.init(creationForInsert(of: entity))
        registerInserted(object)
        return object
    }

    func creationForInsert(of entity: EntityDescription) -> ObjectCreation {
        let id = store(holding: entity).objectID(key: .temporary(newTemporaryKey()), entityNumber: entity.number)
        return ObjectCreation(objectID: id, context: self)
    }

    private func newTemporaryKey() -> UInt64 {
        guard let root else {
            nextTemporaryKey += 1
            return nextTemporaryKey
        }
        guard root.isolation !== isolation else { return root.newTemporaryKey() }
        // A context on another isolation than its root takes keys in blocks, so that an insert
        // seldom waits for the root.
        if temporaryKeyBlock.isEmpty { temporaryKeyBlock = withIsolation(of: root) { root.reserveTemporaryKeys(256) } }
        return temporaryKeyBlock.popFirst()!
    }

    /// The next `count` temporary keys of the tree, for a context on another isolation.
    private func reserveTemporaryKeys(_ count: UInt64) -> Range<UInt64> {
        let first = nextTemporaryKey + 1
        nextTemporaryKey += count
        return first..<(first + count)
    }

    /// Gives a new object its default values and tracks it as inserted.
    func registerInserted(_ object: ManagedObject) {
        let layout = object.entity.rowLayout
        registerInserted(object, values: layout.defaultValues, relationships: layout.emptyRelationships)
        object.lifecycle?.awakeFromInsert()
    }

    /// Gives a new object `values` and `relationships`, and tracks it as inserted.
    func registerInserted(_ object: ManagedObject, values: AttributeValues, relationships: [RelationshipValue]) {
        object.setCurrentAttributeValues(values)
        object.relationshipValues = relationships
        object.isLoaded = true
        register(object)
        trackInserted(object)
        undoManager?.recordInsert(of: object, in: self)
    }

    func trackInserted(_ object: ManagedObject) {
        inserted.insert(object)
        if !changeObservers.isEmpty { unprocessed.insert(object) }
    }

    /// Forgets an unsaved insert, leaving the object its values (for a redo).
    func forgetInserted(_ object: ManagedObject) {
        let row = registryRow(of: object.objectID)
        registry.remove(row)
        inserted.remove(object)
        updated.remove(object)
        deleted.remove(object)
        // Observers hear of it as deleted: the object is no longer in the context.
        if !changeObservers.isEmpty { unprocessed.insert(object) }
        object.context = nil
    }

    /// Marks `object` for deletion by the next save; delete rules apply then. Deleting an object
    /// inserted since the last save just forgets it.
    public func delete(_ object: ManagedObject) {
        guard object.context === self, !deleted.contains(object) else { return }
        object.fulfillIfNeeded()
        deleted.insert(object)
        updated.remove(object)
        if !changeObservers.isEmpty { unprocessed.insert(object) }
        undoManager?.recordDelete(of: object, in: self)
    }

    /// Stops tracking as changed the objects an undo or redo brought back to their saved values.
    func forgetUndoneChanges() {
        for object in updatedObjects where changedKeys(of: object).isEmpty {
            updated.remove(object)
            object.keepValuesAsSaved()
        }
    }

    /// Takes back an unsaved delete; the object's other changes stay.
    func undelete(_ object: ManagedObject) {
        deleted.remove(object)
        object.changeFlags.remove(.preparedForDeletion)
        if !inserted.contains(object), object.savedAttributeValuesIfChanged != nil || object.savedRelationshipValuesIfChanged != nil {
            updated.insert(object)
        }
        if !changeObservers.isEmpty { unprocessed.insert(object) }
        undoManager?.registerUndo(withTarget: self) { $0.delete(object) }
    }

    // MARK: Objects by ID

    /// The object for `id`: the registered one, or a new fault (no database access). Reading a
    /// fault whose row does not exist gives unset values, and saving it fails with a conflict.
    public func object(with id: ObjectID) -> ManagedObject {
        // Each row computed before the registry is read: a call while reading it would copy it.
        let row = registryRow(of: id)
        if let object = registry[row] { return object }
        if parent != nil {
            // An ancestor's save may have renamed one of this context's objects to `id`.
            takePermanentIDNotices()
            if let object = registry[row] { return object }
        }
        if let saved = permanentID(ofSaved: id) { return object(with: saved) }
        // The store's own ID, whose scope holds this store's description of the entity.
        let id = store(of: id).objectID(key: id.key, entityNumber: id.entityNumber)
        let object = id.scope.entity.objectClass.init(ObjectCreation(objectID: id, context: self))
        register(object)
        return object
    }

    /// The object for `id` as a to-one relationship reaches it: one made for it stays alive for a
    /// while (see `RecentlyReachedObjects`).
    func reachedObject(with id: ObjectID) -> ManagedObject {
        let row = registryRow(of: id)
        if let object = registry[row] { return object }
        let object = object(with: id)
        recentlyReached.keep(object)
        return object
    }

    /// The object for `id`, loaded: throws when the store has no such row.
    public func existingObject(with id: ObjectID) throws(ContextError) -> ManagedObject {
        let object = object(with: id)
        guard !object.isLoaded else { return object }
        if fillFromParent(object) { return object }
        do {
            guard try loadRow(of: object) else { throw ContextError.objectNotFound(id) }
        } catch let error as ContextError {
            throw error
        } catch {
            throw .database(message: "\(error)")
        }
        return object
    }

    /// The registered object for `id`, if the context has one.
    public func registeredObject(for id: ObjectID) -> ManagedObject? {
        let row = registryRow(of: id)
        if let object = registry[row] { return object }
        guard let saved = permanentID(ofSaved: id) else { return nil }
        let savedRow = registryRow(of: saved)
        return registry[savedRow]
    }

    /// The permanent ID of the object that had the temporary ID `id` until a save of this context.
    func permanentID(ofSaved id: ObjectID) -> ObjectID? {
        guard id.isTemporaryID else { return nil }
        if let root { return withIsolation(of: root) { root.permanentID(ofSaved: id) } }
        guard case .temporary(let key) = id.key, key >= firstSavedTemporaryKey else { return nil }
        let index = Int(key - firstSavedTemporaryKey)
        guard index < savedTemporaryKeys.count, savedTemporaryKeys[index] > 0 else { return nil }
        return store(of: id).objectID(key: .permanent(savedTemporaryKeys[index]), entityNumber: id.entityNumber)
    }

    /// `value` with the temporary IDs of objects saved since replaced by their permanent ones: a
    /// value recorded before a save (for an undo) names the objects as they are named now.
    func withPermanentIDs(_ value: RelationshipValue) -> RelationshipValue {
        Self.replacingTemporaryIDs(in: value, with: permanentID(ofSaved:), keeping: { _ in true }) ?? value
    }

    /// Forgets which temporary IDs the objects saved so far had: for a context that saves many
    /// batches and holds no ID from before a save (a mapping migration's), whose table of them
    /// would otherwise grow by a key per object.
    func forgetSavedTemporaryIDs() {
        firstSavedTemporaryKey += UInt64(savedTemporaryKeys.count)
        savedTemporaryKeys = []
    }

    /// Notes that the object with the temporary ID `temporary` was saved as `permanent`.
    func noteSaved(_ temporary: ObjectID, as permanent: ObjectID) {
        guard case .temporary(let key) = temporary.key, key >= firstSavedTemporaryKey, let saved = permanent.primaryKey else { return }
        let index = Int(key - firstSavedTemporaryKey)
        // Appended one by one: a save notes its objects in order, so this is one append each.
        while savedTemporaryKeys.count <= index { savedTemporaryKeys.append(0) }
        savedTemporaryKeys[index] = saved
    }

    func register(_ object: ManagedObject) {
        let row = registryRow(of: object.objectID)
        registry.insert(object, for: row)
    }

    /// The registry slot of `row`, for a fetched row: look there (`registeredObject(at:)`), then
    /// register a new object there (`register(_:at:)`) before asking for another slot.
    func registrySlot(for row: ObjectID.Row) -> Int {
        registry.slot(for: row)
    }

    func registeredObject(at slot: Int) -> ManagedObject? {
        registry[slot: slot]
    }

    func register(_ object: ManagedObject, at slot: Int) {
        registry.insert(object, at: slot)
    }

    /// Another object made for the new ID meanwhile (from an ID read elsewhere while an
    /// asynchronous save waited) is disconnected: one object per row.
    func reregister(_ object: ManagedObject, from oldID: ObjectID) {
        let (oldRow, row) = (registryRow(of: oldID), registryRow(of: object.objectID))
        registry.remove(oldRow)
        if let other = registry[row], other !== object {
            updated.remove(other)
            deleted.remove(other)
            other.context = nil
        }
        registry.insert(object, for: row)
    }

    /// Called by an object's `deinit`: drops its entry, unless the ID now belongs to another object.
    /// Compares addresses: the object is mid-`deinit` and must not be retained.
    func objectWillDeinit(_ id: ObjectID, _ object: UnsafeMutableRawPointer) {
        let row = registryRow(of: id)
        registry.remove(row, only: object)
    }

    /// Every registered object, as a list.
    var registeredObjectList: [ManagedObject] {
        registry.objects
    }

    /// Calls `body` with each registered object, without collecting them first.
    func forEachRegisteredObject(_ body: (ManagedObject) -> Void) {
        registry.forEach(body)
    }

    /// Forgets a deleted object once its deletion is saved.
    func reregisterDeleted(_ object: ManagedObject) {
        let row = registryRow(of: object.objectID)
        registry.remove(row)
        object.context = nil
    }

    /// Forgets the change tracking after a save.
    func clearChanges() {
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        misuses.removeAll()
    }

    /// Forgets the change tracking of what an asynchronous save wrote; changes made while it
    /// waited stay.
    func clearChanges(savedBy save: PreparedSave) {
        inserted.remove(save.toInsert + save.deletedObjects)
        updated.remove(save.toUpdate + save.deletedObjects)
        deleted.remove(save.deletedObjects)
    }

    /// Stops tracking as changed objects whose values are the saved ones.
    func forgetChanges(of objects: [ManagedObject]) {
        updated.remove(objects)
    }

    /// Forgets an object whose row another writer deleted, with the changes made to it here.
    func forgetDeletedElsewhere(_ object: ManagedObject) {
        updated.remove(object)
        deleted.remove(object)
        reregisterDeleted(object)
    }

    /// Tracks as changed a saved object whose values differ from those just saved.
    func stillChanged(_ object: ManagedObject) {
        if !deleted.contains(object) && !inserted.contains(object) { updated.insert(object) }
    }

    // MARK: Discarding changes

    /// Discards every unsaved change: inserted objects are forgotten, changed ones get their saved
    /// values back, deleted ones are undeleted.
    public func rollback() {
        guard !isSavingAsynchronously else { return afterAsynchronousSave { $0.rollback() } }
        // Everything changed since the last save changes back: observers hear of it once.
        var changes = ObjectsDidChange()
        if !changeObservers.isEmpty {
            changes.deleted = Set(inserted.objects.map(\.objectID))
            changes.updated = Set((updated.objects + deleted.objects + unprocessed.objects).lazy.filter { !self.inserted.contains($0) }.map(\.objectID))
            unprocessed.removeAll()
        }
        for object in inserted.objects {
            let row = registryRow(of: object.objectID)
            registry.remove(row)
            object.context = nil
        }
        // An inserted object has no saved values; it was forgotten above with its values intact.
        for object in updated.objects + deleted.objects where !inserted.contains(object) {
            object.changingValues { object.setLoadedValues(object.savedAttributeValues, object.savedRelationshipValues) }
        }
        // Relationships of unchanged objects may point at forgotten inserts; reload them lazily.
        for object in registeredObjectList where object.isLoaded {
            guard let saved = object.savedRelationshipValuesIfChanged else { continue }
            object.changingValues { object.relationshipValues = saved }
            object.savedRelationshipValuesIfChanged = nil
        }
        // Undeleted: a later deletion tells the object again.
        for object in deleted.objects { object.changeFlags.remove(.preparedForDeletion) }
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        misuses.removeAll()
        // As in Core Data: what was undoable referred to the discarded changes.
        undoManager?.removeAllActions()
        notifyObservers(changes)
    }

    /// Forgets every object: registered objects are disconnected (their `context` becomes `nil`),
    /// unsaved changes are dropped.
    public func reset() {
        guard !isSavingAsynchronously else { return afterAsynchronousSave { $0.reset() } }
        for object in registeredObjectList { object.context = nil }
        registry.removeAll()
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        unprocessed.removeAll()
        misuses.removeAll()
        prefetchedRows.removeAll()
        recentlyReached.removeAll()
        undoManager?.removeAllActions()
        notifyObservers(ObjectsDidChange(invalidatesAll: true))
    }

    /// Reloads `object` from the store: with `mergeChanges` its unsaved changes are kept on top of the
    /// fresh values; without, they are dropped and the object becomes a fault.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        refresh(object, mergeChanges: mergeChanges, changedProperties: nil)
    }

    /// Refreshes `object`, whose observers hear of the properties a save elsewhere changed
    /// (`changedProperties`, from its change set), or of every loaded one when that is unknown.
    func refresh(_ object: ManagedObject, mergeChanges: Bool, changedProperties: Set<String>?) {
        guard !isSavingAsynchronously else {
            return afterAsynchronousSave { $0.refresh(object, mergeChanges: mergeChanges, changedProperties: changedProperties) }
        }
        guard object.context === self, !inserted.contains(object) else { return }
        prefetchedRows[object.objectID] = nil
        object.changingValues(unloadedMayDiffer: changedProperties) { reload(object, mergeChanges: mergeChanges) }
    }

    /// Makes `object` a fault, then, with `mergeChanges`, loads it again and puts its unsaved
    /// changes back on top.
    private func reload(_ object: ManagedObject, mergeChanges: Bool) {
        let local = object.currentAttributeValues
        let changedSlots = mergeChanges && object.isLoaded ? object.changedAttributeSlots(current: local) : []
        let localRelationships = object.relationshipValues
        let changedRelationshipSlots = mergeChanges && object.isLoaded
            ? object.relationshipValues.indices.filter { !Self.same(localRelationships[$0], object.savedRelationshipValues[$0]) } : []
        let wasLoaded = object.isLoaded
        if wasLoaded { object.lifecycle?.willTurnIntoFault() }
        object.isLoaded = false
        object.setCurrentAttributeValues(AttributeValues())
        object.savedAttributeValuesIfChanged = nil
        object.relationshipValues = []
        object.savedRelationshipValuesIfChanged = nil
        // A fault now; loading it again below (for its changes) makes it awake again.
        if wasLoaded { object.lifecycle?.didTurnIntoFault() }
        if !changeObservers.isEmpty { unprocessed.insert(object) }
        if changedSlots.isEmpty && changedRelationshipSlots.isEmpty {
            updated.remove(object)
            return
        }
        object.fulfillIfNeeded()
        for slot in changedSlots where slot < object.loadedAttributeCount { object.changeAttributeValue(local[slot], atSlot: slot) }
        for slot in changedRelationshipSlots where slot < object.relationshipValues.count {
            object.changeRelationshipValue(localRelationships[slot], atSlot: slot)
        }
    }

    static func same(_ lhs: RelationshipValue, _ rhs: RelationshipValue) -> Bool {
        switch (lhs, rhs) {
        case (.unloaded, .unloaded): true
        case (.toOne(let a), .toOne(let b)): a == b
        case (.toMany(let a), .toMany(let b)): a == b
        default: false
        }
    }
}
