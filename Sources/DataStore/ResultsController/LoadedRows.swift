/// The objects of a results list read so far, by key: a few batches, the oldest dropped first,
/// so memory follows the batch size, not the list's length. Keyed rather than positioned, so
/// that rows stay loaded when the list changes around them.
struct LoadedRows<Object: ManagedObject> {
    private var objects: [Int64: Object] = [:]
    private var batches: [[Int64]] = []
    /// Batches kept; 0 keeps every batch (a request without a batch size loads everything).
    let batchLimit: Int

    init(batchLimit: Int) {
        self.batchLimit = batchLimit
    }

    subscript(key: Int64) -> Object? { objects[key] }

    mutating func add(_ batch: [(key: Int64, object: Object)]) {
        for (key, object) in batch { objects[key] = object }
        batches.append(batch.map(\.key))
        guard batchLimit > 0, batches.count > batchLimit else { return }
        let retained = Set(batches.dropFirst().joined())
        for key in batches.removeFirst() where !retained.contains(key) { objects[key] = nil }
    }

    /// Follows a save's new IDs.
    mutating func rekey(_ keys: [Int64: Int64]) {
        for (old, new) in keys {
            objects[new] = objects.removeValue(forKey: old)
        }
        for index in batches.indices { batches[index] = batches[index].map { keys[$0] ?? $0 } }
    }

    mutating func removeAll() {
        objects.removeAll()
        batches.removeAll()
    }
}
