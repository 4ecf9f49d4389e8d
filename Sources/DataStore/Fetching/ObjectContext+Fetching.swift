import GRDB
import GRDBSQLite

/// Fetching: the store's rows that match a request, merged with the context's unsaved changes.
extension ObjectContext {
    /// The objects that match `request`, in its order. Objects already in the context are returned
    /// as they are (uniquing); with `includesPendingChanges` (the default), unsaved objects match by
    /// their current values and deleted ones never. With a `fetchBatchSize`, the keys are read
    /// first and the rows in batches, as Core Data does; `fetchBatched` keeps memory bounded too.
    public func fetch<Object>(_ request: FetchRequest<Object>) throws(ContextError) -> [Object] {
        if request.fetchBatchSize > 0 { return Array(try fetchBatched(request)) }
        let plan = try FetchPlan(request, store: storeFetching(request.entityName), coordinator: coordinator)
        let objects = try matchingObjects(plan, request)
        try prefetch(plan.prefetchPaths, for: objects, asFaults: plan.returnsObjectsAsFaults)
        return objects.objects(of: Object.self, entities: plan.entities)
    }

    /// The number of objects `fetch(request)` would return, counted in SQL when the context has no
    /// unsaved changes.
    public func count<Object>(for request: FetchRequest<Object>) throws(ContextError) -> Int {
        let plan = try FetchPlan(request, store: storeFetching(request.entityName), coordinator: coordinator)
        guard !judgesInMemory(plan, request) else { return try matchingObjects(plan, request).count }
        var all = 0
        try forEachRow(plan.select("COUNT(*)", ordered: false), in: plan.store) { row in all = Int(row.int64(0)) }
        return Self.count(all, within: request)
    }

    /// How many of `all` matches the request's offset and limit leave.
    static func count<Object>(_ all: Int, within request: FetchRequest<Object>) -> Int {
        let afterOffset = max(0, all - request.fetchOffset)
        return request.fetchLimit > 0 ? min(afterOffset, request.fetchLimit) : afterOffset
    }

    /// The IDs of the objects `fetch(request)` would return, without making objects when the
    /// context has no unsaved changes.
    public func fetchObjectIDs<Object>(_ request: FetchRequest<Object>) throws(ContextError) -> [ObjectID] {
        let plan = try FetchPlan(request, store: storeFetching(request.entityName), coordinator: coordinator)
        guard !judgesInMemory(plan, request) else { return try matchingObjects(plan, request).map(\.objectID) }
        return try readObjectIDs(objectIDQuery(plan, request), of: plan.entity)
    }

    /// The query of `fetchObjectIDs` in a context without changes the request includes.
    func objectIDQuery<Object>(_ plan: FetchPlan, _ request: FetchRequest<Object>) -> SQLFragment {
        plan.select("t0.\(.Z_PK), t0.\(.Z_ENT)", limit: request.fetchLimit, offset: request.fetchOffset)
    }

    /// The IDs of the rows `sql` selects (`Z_PK`, `Z_ENT`) from `entity`'s table — all of `entity`
    /// when it is alone in its table, as `RowMaterializer` reads them — from `rows` when they were
    /// read already.
    func readObjectIDs(_ sql: SQLFragment, of entity: EntityDescription, from rows: ReadRows? = nil) throws(ContextError) -> [ObjectID] {
        var ids: [ObjectID] = []
        let readsEntityColumn = !entity.isSoleEntityOfTable
        let store = store(holding: entity)
        try forEachRow(sql, in: store, from: rows) { row in
            let entityNumber = readsEntityColumn ? Int(row.int64(1)) : entity.number
            ids.append(store.objectID(key: .permanent(row.int64(0)), entityNumber: entityNumber))
        }
        return ids
    }

    /// What `matchingObjects` reads from the store for a request: the one query, and how its rows
    /// become the result. Decided once, before the read, so that an asynchronous fetch turns its
    /// rows into objects as the query it read meant.
    struct MatchingRead {
        enum Use {
            /// The result, in order: IDs only, or whole rows.
            case objectIDs, objects
            /// Candidates to merge with the context's changes: rows the predicate matched in SQL,
            /// or every row of the entity.
            case matchedCandidates, allCandidates

            /// How many rows it reads: rows read for a broader use serve a narrower one.
            var breadth: Int {
                switch self {
                case .objectIDs, .objects: 0
                case .matchedCandidates: 1
                case .allCandidates: 2
                }
            }
        }
        var sql: SQLFragment
        var use: Use
    }

    /// Whether the matches of `request` are judged in memory: the context has unsaved changes the
    /// request includes, or the store's SQL cannot tell which rows match or their order (text
    /// comparisons on a server, judged as `PredicateEvaluator` judges them).
    func judgesInMemory<Object>(_ plan: FetchPlan, _ request: FetchRequest<Object>) -> Bool {
        plan.evaluatesInMemory || (request.includesPendingChanges && hasPendingChanges)
    }

    func matchingRead<Object>(_ plan: FetchPlan, _ request: FetchRequest<Object>) -> MatchingRead {
        let columns = plan.entity.selectColumns
        guard judgesInMemory(plan, request) else {
            guard request.includesPropertyValues else {
                return MatchingRead(sql: objectIDQuery(plan, request), use: .objectIDs)
            }
            return MatchingRead(sql: plan.select(columns, limit: request.fetchLimit, offset: request.fetchOffset), use: .objects)
        }
        // Rows the SQL matched are candidates enough unless a change elsewhere can change them.
        return plan.isLocal || !(request.includesPendingChanges && hasPendingChanges)
            ? MatchingRead(sql: plan.select(columns, ordered: false), use: .matchedCandidates)
            : MatchingRead(sql: SQLFragment(sql: plan.selectAllRows(columns)), use: .allCandidates)
    }

    /// The objects that match, merged with unsaved changes when the request includes them, sorted,
    /// offset and limited: from `rows` when `read` was read already.
    func matchingObjects<Object>(
        _ plan: FetchPlan, _ request: FetchRequest<Object>, _ read: MatchingRead? = nil, rows: ReadRows? = nil
    ) throws(ContextError) -> [ManagedObject] {
        let read = read ?? matchingRead(plan, request)
        switch read.use {
        case .objectIDs: return try readObjectIDs(read.sql, of: plan.entity, from: rows).map(object(with:))
        case .objects: return try fetchRows(read.sql, of: plan.entity, asFaults: plan.returnsObjectsAsFaults, from: rows)
        case .matchedCandidates, .allCandidates: break
        }
        // Before the rows become objects: a child's objects of rows its parent changed are made
        // from the parent's objects, not from the store's rows.
        let pending = pendingChanges()
        let candidates = try fetchRows(read.sql, of: plan.entity, asFaults: read.use == .matchedCandidates && plan.returnsObjectsAsFaults, from: rows)
        let evaluator = PredicateEvaluator(context: self)
        let matches = { (object: ManagedObject) in plan.predicate.map { evaluator.evaluate($0, on: object) } ?? true }
        var matching: [ManagedObject]
        if read.use == .matchedCandidates {
            // Unchanged rows matched in SQL (all of the predicate, or the part the store's SQL can
            // say); changed and new objects are judged by their current values.
            matching = candidates.filter { !pending.isChanged($0) && (!plan.evaluatesInMemory || matches($0)) }
            matching += (pending.inserted + pending.updated).filter { plan.includes($0) && !pending.isDeleted($0) && matches($0) }
        } else {
            // A change to a related object can change any row's match or order: judge them all in memory.
            matching = candidates.filter { !pending.isDeleted($0) }
            matching += pending.inserted.filter { plan.includes($0) && !pending.isDeleted($0) }
            matching = matching.filter(matches)
        }
        let sorted = sortedInMemory(matching.map { ($0, plan.sortKeys) })
        let start = min(request.fetchOffset, sorted.count)
        let end = request.fetchLimit > 0 ? min(sorted.count, start + request.fetchLimit) : sorted.count
        return Array(sorted[start..<end])
    }

    /// Objects in the order of their sort keys (resolved for each object's entity), as the store's
    /// SQL orders rows; then saved objects by key before unsaved ones in insertion order.
    func sortedInMemory(_ objects: [(ManagedObject, [FetchPlan.SortKey])]) -> [ManagedObject] {
        let evaluator = PredicateEvaluator(context: self)
        let keyed = objects.map { object, keys in
            (object: object, keys: keys, values: keys.map { evaluator.storedValue(of: $0.attribute, at: $0.path, from: object) })
        }
        return keyed.sorted { lhs, rhs in
            for (index, key) in lhs.keys.enumerated() {
                let order = SortComparison.compare(lhs.values[index], rhs.values[index], key.descriptor.comparator)
                if order != 0 { return key.descriptor.ascending ? order < 0 : order > 0 }
            }
            return Self.storeOrder(lhs.object.objectID, rhs.object.objectID)
        }.map(\.object)
    }

    static func storeOrder(_ lhs: ObjectID, _ rhs: ObjectID) -> Bool {
        switch (lhs.key, rhs.key) {
        case (.permanent(let left), .permanent(let right)): left < right
        case (.permanent, .temporary): true
        case (.temporary, .permanent): false
        case (.temporary(let left), .temporary(let right)): left < right
        }
    }

    /// The objects for the rows `sql` selects (every column of the table, in table order) — from
    /// `rows` when they were read already; objects not loaded before are left reporting themselves
    /// faults when `asFaults`.
    func fetchRows(_ sql: SQLFragment, of entity: EntityDescription, asFaults: Bool = false, from rows: ReadRows? = nil) throws(ContextError) -> [ManagedObject] {
        var objects: [ManagedObject] = []
        var materializer = RowMaterializer(context: self, entity: entity, asFaults: asFaults)
        try forEachRow(sql, in: store(holding: entity), from: rows) { row in objects.append(materializer.object(for: row)) }
        return objects
    }

    /// Calls `body` with the columns of each row of `rows`, when they were read already, or else
    /// of `sql` run in a read. While an asynchronous save of the context or an ancestor writes,
    /// the store may hold rows of objects the context does not know saved: it throws `saveInProgress`.
    func forEachRow(_ sql: SQLFragment, in store: PersistentStore, from rows: ReadRows? = nil, _ body: (RowColumns) -> Void) throws(ContextError) {
        if let rows { return rows.forEach(body) }
        takePermanentIDNotices()
        guard !isTopContextSavingAsynchronously else { throw .saveInProgress }
        try readEachRow(sql, in: store, body)
    }

    /// Calls `body` with the columns of each row `sql` selects, read now, the calling thread
    /// waiting, logging the number of rows and turning database errors into
    /// `ContextError.database`.
    func readEachRow(_ sql: SQLFragment, in store: PersistentStore, _ body: (RowColumns) -> Void) throws(ContextError) {
        do {
            if let transactionReader { return try transactionReader(sql).forEach(body) }
            _ = try store.logged(sql, { try store.engine.forEachRow(sql.sql, arguments: sql.arguments, body) }, rows: { $0 })
        } catch {
            throw .database(message: "\(error)")
        }
    }
}
