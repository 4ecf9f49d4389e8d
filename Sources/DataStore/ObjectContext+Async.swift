/// The asynchronous forms of what reads the store: in `async` code, `try await context.fetch(request)`
/// reads the store's rows on one of its connections while the caller's isolation — the main actor,
/// a server's request task — is free to run other work, then makes the objects on the caller's
/// isolation, where the context and its objects stay. Each returns what its synchronous form
/// returns for the same store and context.
///
///     @MainActor func reload() async throws {
///         books = try await context.fetch(FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("title")]))
///     }
///
/// Changes made to the context while a fetch waits for its rows are part of its result, as they
/// would be of a fetch started after them.
extension ObjectContext {
    /// The objects that match `request`, in its order: the synchronous `fetch(_:)` with the store read off
    /// the caller's isolation, prefetched relationships included. With a `fetchBatchSize`, the keys
    /// are read so and the batches as they are used.
    nonisolated(nonsending)
    public func fetch<Object>(_ request: FetchRequest<Object>) async throws(ContextError) -> [Object] {
        if request.fetchBatchSize > 0 { return Array(try await fetchBatched(request)) }
        let plan = try FetchPlan(request, store: storeFetching(request.entityName), coordinator: coordinator)
        let objects = try await matchingObjects(plan, request)
        try await prefetch(plan.prefetchPaths, for: objects, asFaults: plan.returnsObjectsAsFaults)
        return objects.objects(of: Object.self, entities: plan.entities)
    }

    /// The number of objects `fetch(request)` would return, counted in SQL off the caller's
    /// isolation when the context has no unsaved changes the request includes.
    nonisolated(nonsending)
    public func count<Object>(for request: FetchRequest<Object>) async throws(ContextError) -> Int {
        let plan = try FetchPlan(request, store: storeFetching(request.entityName), coordinator: coordinator)
        guard !judgesInMemory(plan, request) else { return try await matchingObjects(plan, request).count }
        var all = 0
        try await readRows(plan.select("COUNT(*)", ordered: false), in: plan.store).forEach { row in all = Int(row.int64(0)) }
        guard !(request.includesPendingChanges && hasPendingChanges) else { return try await count(for: request) }
        return Self.count(all, within: request)
    }

    /// The IDs of the objects `fetch(request)` would return, without making objects when the
    /// context has no unsaved changes the request includes.
    nonisolated(nonsending)
    public func fetchObjectIDs<Object>(_ request: FetchRequest<Object>) async throws(ContextError) -> [ObjectID] {
        let plan = try FetchPlan(request, store: storeFetching(request.entityName), coordinator: coordinator)
        guard !judgesInMemory(plan, request) else { return try await matchingObjects(plan, request).map(\.objectID) }
        let sql = objectIDQuery(plan, request)
        let rows = try await readRows(sql, in: plan.store)
        guard !(request.includesPendingChanges && hasPendingChanges) else { return try await fetchObjectIDs(request) }
        return try readObjectIDs(sql, of: plan.entity, from: rows)
    }

    /// The objects that match `request` in batches of its `fetchBatchSize`: the keys of every match
    /// read off the caller's isolation; each batch read when first used, as the synchronous
    /// `fetchBatched(_:)` reads it.
    nonisolated(nonsending)
    public func fetchBatched<Object>(_ request: FetchRequest<Object>) async throws(ContextError) -> BatchedFetchResults<Object> {
        let plan = try FetchPlan(request, store: storeFetching(request.entityName), coordinator: coordinator)
        guard request.fetchBatchSize > 0, !judgesInMemory(plan, request) else {
            let objects = try await matchingObjects(plan, request)
            try await prefetch(plan.prefetchPaths, for: objects, asFaults: plan.returnsObjectsAsFaults)
            return BatchedFetchResults(context: self, objects: objects.objects(of: Object.self, entities: plan.entities))
        }
        let keys = try await readRows(keyQuery(plan, limit: request.fetchLimit, offset: request.fetchOffset), in: plan.store)
        guard !(request.includesPendingChanges && hasPendingChanges) else { return try await fetchBatched(request) }
        return try BatchedFetchResults(context: self, request: request, plan: plan, keys: keys)
    }

    /// The dictionary results of `request`, as the synchronous `fetchDictionaries(_:)` returns them,
    /// computed in SQL off the caller's isolation — or in memory from the matching objects, read
    /// so, when the context has unsaved changes the request includes.
    nonisolated(nonsending)
    public func fetchDictionaries<Object>(_ request: FetchRequest<Object>) async throws(ContextError) -> [[String: PredicateValue]] {
        let plan = try FetchPlan(request, store: storeFetching(request.entityName), coordinator: coordinator, forDictionaries: true)
        guard let shape = plan.dictionary else { return [] }
        guard !judgesDictionariesInMemory(plan, request) else {
            let objects = try await matchingObjects(plan, Self.inMemoryRequest(shape, request))
            return Self.dictionaries(try rowsInMemory(plan, shape, request, objects), shape)
        }
        let sql = Self.dictionarySQL(plan, shape, request)
        let rows = try await readRows(sql, in: plan.store)
        guard !(request.includesPendingChanges && hasPendingChanges) else { return try await fetchDictionaries(request) }
        return Self.dictionaries(try rowsInSQL(sql, shape, in: plan.store, from: rows), shape)
    }

    /// The dictionary results of `request` decoded as `type`, as the synchronous
    /// `fetchDictionaries(_:as:)` decodes them, read off the caller's isolation.
    nonisolated(nonsending)
    public func fetchDictionaries<Object, Row: Decodable>(_ request: FetchRequest<Object>, as type: Row.Type) async throws(ContextError) -> [Row] {
        try Self.decode(try await fetchDictionaries(request), as: Row.self)
    }

    /// Loads the rows of every fault among `objects` — one query per entity and run of 500 keys, read
    /// off the caller's isolation — so that reading them afterwards waits for nothing: a batch of
    /// faults fired at once. Objects without a row in the store stay faults (and read as unset
    /// values, as a deleted object's fault does).
    nonisolated(nonsending)
    public func fulfillFaults(of objects: [ManagedObject]) async throws(ContextError) {
        let faults = objects.filter { $0.context === self && !$0.isLoaded }
        guard parent == nil else {
            // A child's faults fill from the parent's objects, in memory.
            return faults.forEach { $0.fulfillIfNeeded() }
        }
        for query in rowQueries(forFaultsAmong: faults) {
            let rows = try await readRows(query.sql, in: store(holding: query.entity))
            var materializer = RowMaterializer(context: self, entity: query.entity, asFaults: false)
            rows.forEach { row in _ = materializer.object(for: row) }
        }
    }

    /// The objects that match, as the synchronous form gives them, with the store's rows read off
    /// the caller's isolation. When changes the read did not plan for arrive while it waits (the
    /// first unsaved change of a context whose rows were read already limited), it reads again.
    nonisolated(nonsending)
    func matchingObjects<Object>(_ plan: FetchPlan, _ request: FetchRequest<Object>) async throws(ContextError) -> [ManagedObject] {
        let read = matchingRead(plan, request)
        let rows = try await readRows(read.sql, in: plan.store)
        // Changes made while the rows were read may need more rows than were: read again for them.
        guard matchingRead(plan, request).use.breadth <= read.use.breadth else { return try await matchingObjects(plan, request) }
        return try matchingObjects(plan, request, read, rows: rows)
    }
}

extension ObjectContext {
    /// The rows of `sql`, read off the caller's isolation once no asynchronous save of this
    /// context or an ancestor is writing — and read again if one ran meanwhile: its rows would
    /// reach the context before the context knows what they are.
    nonisolated(nonsending)
    func readRows(_ sql: SQLFragment, in store: PersistentStore) async throws(ContextError) -> ReadRows {
        let writing = topContext
        while true {
            await waitForAsynchronousSave()
            takePermanentIDNotices()
            let saves = withIsolation(of: writing) { writing.completedSaves }
            let rows = try await store.readRows(sql)
            if withIsolation(of: writing, { !writing.isSavingAsynchronously && writing.completedSaves == saves }) { return rows }
        }
    }
}
