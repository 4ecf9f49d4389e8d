/// The result of a batched fetch: the keys of every match, in order, read at once; the objects
/// themselves loaded `fetchBatchSize` at a time, by key, when an element is first read — Core
/// Data's batched fetch. Memory holds the keys (8 bytes per row, 12 with subentities) and the
/// two most recently read batches, whatever the number of matches.
///
///     var request = FetchRequest<FailedBankInfo>()
///     request.fetchBatchSize = 20
///     let banks = try context.fetchBatched(request)
///     print(banks.count, banks[banks.count - 1].name)
///
/// Confined to its context's isolation, like the context's objects. When the context has unsaved
/// changes the request includes, the objects are fetched at once instead (they must be judged in
/// memory).
public final class BatchedFetchResults<Object: ManagedObject>: RandomAccessCollection {
    public let startIndex = 0
    public let endIndex: Int
    private let context: ObjectContext
    private let storage: Storage
    /// Loaded batches by batch number, the most recently read last.
    private var batches: [(number: Int, objects: [Object])] = []

    private enum Storage {
        case keys(keys: [Int64], entityNumbers: [Int32]?, batchSize: Int, plan: FetchPlan)
        case objects([Object])
    }

    /// The results of `request`; `keys` are the rows of its key query when they were read already.
    init(context: ObjectContext, request: FetchRequest<Object>, plan: FetchPlan, keys: ReadRows? = nil) throws(ContextError) {
        self.context = context
        guard request.fetchBatchSize > 0, !context.judgesInMemory(plan, request) else {
            let objects = try context.matchingObjects(plan, request).objects(of: Object.self, entities: plan.entities)
            try context.prefetch(plan.prefetchPaths, for: objects, asFaults: plan.returnsObjectsAsFaults)
            storage = .objects(objects)
            endIndex = objects.count
            return
        }
        let withEntities = plan.entity.hasSubentities
        let (keys, entityNumbers) = try context.readKeys(plan, limit: request.fetchLimit, offset: request.fetchOffset, from: keys)
        storage = .keys(keys: keys, entityNumbers: withEntities ? entityNumbers : nil, batchSize: request.fetchBatchSize, plan: plan)
        endIndex = keys.count
    }

    /// Results already made in full.
    init(context: ObjectContext, objects: [Object]) {
        self.context = context
        storage = .objects(objects)
        endIndex = objects.count
    }

    public subscript(position: Int) -> Object {
        precondition(indices.contains(position), "index \(position) out of range 0..<\(endIndex)")
        switch storage {
        case .objects(let objects):
            return objects[position]
        case .keys(_, _, let batchSize, _):
            let number = position / batchSize
            let batch = batches.last { $0.number == number }?.objects ?? load(batch: number)
            return batch[position - number * batchSize]
        }
    }

    /// Reads batch `number` in one query (`WHERE t0.Z_PK IN (…)` in the fetch's order), keeping it
    /// and the batch read before it.
    private func load(batch number: Int) -> [Object] {
        guard case .keys(let keys, let entityNumbers, let batchSize, let plan) = storage else { return [] }
        let range = number * batchSize..<Swift.min(keys.count, (number + 1) * batchSize)
        let batchKeys = Array(keys[range])
        // A row deleted since the keys were read gives an object that reads as unset values.
        let fetched = (try? context.fetchRows(plan.selectBatch(batchKeys), of: plan.entity, asFaults: plan.returnsObjectsAsFaults)) ?? []
        let byKey = Dictionary(fetched.compactMap { object in object.objectID.primaryKey.map { ($0, object) } }, uniquingKeysWith: { first, _ in first })
        let objects = range.map { index -> Object? in
            let entityNumber = entityNumbers.map { Int($0[index]) } ?? plan.entity.number
            let object = byKey[keys[index]] ?? context.object(with: plan.store.objectID(key: .permanent(keys[index]), entityNumber: entityNumber))
            return object as? Object
        }.compactMap { $0 }
        // Prefetching failures leave the relationships to load on use, like any fault.
        try? context.prefetch(plan.prefetchPaths, for: objects, asFaults: plan.returnsObjectsAsFaults)
        batches.removeAll { $0.number == number }
        batches.append((number, objects))
        if batches.count > 2 { batches.removeFirst() }
        return objects
    }
}

extension ObjectContext {
    /// The keys (`Z_PK`) of the rows `plan` selects, in order, with their `Z_ENT` when the entity
    /// has subentities — Core Data's first query of a batched fetch — from `rows` when
    /// `keyQuery(plan, limit:offset:)` was read already.
    func readKeys(_ plan: FetchPlan, limit: Int = 0, offset: Int = 0, from rows: ReadRows? = nil) throws(ContextError) -> (keys: [Int64], entityNumbers: [Int32]) {
        let withEntities = plan.entity.hasSubentities
        var keys: [Int64] = [], entityNumbers: [Int32] = []
        try forEachRow(keyQuery(plan, limit: limit, offset: offset), in: plan.store, from: rows) { row in
            keys.append(row.int64(1))
            if withEntities { entityNumbers.append(Int32(truncatingIfNeeded: row.int64(0))) }
        }
        return (keys, entityNumbers)
    }

    /// The query of `readKeys`.
    func keyQuery(_ plan: FetchPlan, limit: Int = 0, offset: Int = 0) -> SQLFragment {
        plan.select(plan.entity.hasSubentities ? "t0.\(.Z_ENT), t0.\(.Z_PK)" : "0, t0.\(.Z_PK)", limit: limit, offset: offset)
    }

    /// The objects that match `request` as a collection that loads them in batches of
    /// `request.fetchBatchSize` when read (all at once when the batch size is 0).
    public func fetchBatched<Object>(_ request: FetchRequest<Object>) throws(ContextError) -> BatchedFetchResults<Object> {
        try BatchedFetchResults(context: self, request: request, plan: FetchPlan(request, store: storeFetching(request.entityName), coordinator: coordinator))
    }
}
