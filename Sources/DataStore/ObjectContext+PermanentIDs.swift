/// Permanent IDs before a save, as Core Data's `obtainPermanentIDs(for:)` gives them.
extension ObjectContext {
    /// Gives each object of `objects` that is inserted in this context and not saved yet its
    /// permanent ID now, taking its primary key from the store in a transaction of its own, so
    /// that the ID can be handed to another context, written into a URI or kept for later before
    /// the object is saved. The object stays inserted: its save writes its row with that key.
    ///
    /// The context's observers (results controllers) and child contexts see the new IDs as after
    /// a save. Keys taken for objects that are then never saved stay unused, as in Core Data.
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws(ContextError) {
        var seen = Set<ObjectIdentifier>()
        let temporary = objects.filter { $0.context === self && $0.objectID.isTemporaryID && seen.insert(ObjectIdentifier($0)).inserted }
        guard !temporary.isEmpty else { return }
        var temporaryKeys: [UInt64] = [], ids: [ObjectID] = []
        // Each store's keys in a transaction of that store.
        for store in coordinator.persistentStores {
            let objects = temporary.filter { self.store(of: $0) === store }
            guard !objects.isEmpty else { continue }
            var lastKeys = try Self.takePrimaryKeys(Dictionary(grouping: objects, by: \.entity.rootNumber).mapValues(\.count), in: store)
            for object in objects {
                guard case .temporary(let key) = object.objectID.key else { continue }
                let root = object.entity.rootNumber
                lastKeys[root, default: 0] += 1
                temporaryKeys.append(key)
                ids.append(ObjectID(scope: object.objectID.scope, key: .permanent(lastKeys[root]!)))
            }
        }
        // The family shares its temporary keys: every context that holds one of the objects renames
        // it — this one at once, the others from the root down, each where it is used.
        let permanentIDs = PermanentIDs(temporaryKeys: temporaryKeys, permanent: ids)
        adoptPermanentIDs(permanentIDs)
        if let root { withIsolation(of: root) { root.adoptPermanentIDs(permanentIDs) } }
    }

    /// Takes `counts[root]` primary keys of each root entity's table from `store`, in one
    /// transaction; the last key before them, by root.
    private static func takePrimaryKeys(_ counts: [Int: Int], in store: PersistentStore) throws(ContextError) -> [Int: Int64] {
        do {
            return try store.engine.write { engineTransaction in
                let transaction = SaveTransaction(engineTransaction, store: store)
                var lastKeys: [Int: Int64] = [:]
                for (root, count) in counts.sorted(by: { $0.key < $1.key }) {
                    let last = try transaction.lastPrimaryKey(ofRoot: root, table: store.entity(number: root)?.tableName ?? "", dialect: store.dialect)
                    try transaction.recordLastPrimaryKey(last + Int64(count), ofRoot: root, locksRows: store.engine.locksRows)
                    lastKeys[root] = last
                }
                return lastKeys
            }
        } catch {
            throw .database(message: "taking primary keys for permanent IDs: \(error)")
        }
    }
}
