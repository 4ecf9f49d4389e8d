/// The permanent IDs a save gives its inserted objects, found by temporary ID.
///
/// Temporary keys count up per context, and a save's inserted objects come in insertion order, so
/// the keys are already sorted: a binary search finds one, where a hash table of every ID would
/// cost more to build than the rows cost to write.
struct PermanentIDs: Sendable {
    /// The permanent ID of each inserted object, in the save's order.
    let ids: [ObjectID]
    /// The temporary keys, ascending, and the position in `ids` of each.
    private let sortedKeys: [UInt64]
    private let positions: [Int]?

    init() {
        self.init(temporaryKeys: [], permanent: [])
    }

    /// The temporary key and the permanent ID of each inserted object, at the same index (key 0
    /// for an object inserted with its permanent ID).
    init(temporaryKeys keys: [UInt64], permanent: [ObjectID]) {
        ids = permanent
        if zip(keys, keys.dropFirst()).allSatisfy({ $0 < $1 }) {
            sortedKeys = keys
            positions = nil
        } else {
            let order = keys.indices.sorted { keys[$0] < keys[$1] }
            sortedKeys = order.map { keys[$0] }
            positions = order
        }
    }

    var isEmpty: Bool { ids.isEmpty }

    /// The permanent ID of the object whose temporary ID is `temporary`; `nil` when it was not
    /// saved.
    subscript(temporary: ObjectID) -> ObjectID? {
        guard case .temporary(let key) = temporary.key else { return nil }
        var low = 0, high = sortedKeys.count
        while low < high {
            let middle = (low + high) / 2
            if sortedKeys[middle] < key { low = middle + 1 } else { high = middle }
        }
        guard low < sortedKeys.count, sortedKeys[low] == key else { return nil }
        let id = ids[positions?[low] ?? low]
        return id.entityNumber == temporary.entityNumber ? id : nil
    }

    /// The permanent form of `id`: itself when already permanent; `nil` for an object the save
    /// does not write.
    func resolved(_ id: ObjectID?) -> ObjectID? {
        guard let id else { return nil }
        return id.isTemporaryID ? self[id] : id
    }

    /// Every temporary ID with its permanent one, for the context's observers. A temporary ID has
    /// its permanent one's store and entity.
    var dictionary: [ObjectID: ObjectID] {
        var pairs: [ObjectID: ObjectID] = [:]
        pairs.reserveCapacity(ids.count)
        for (position, key) in sortedKeys.enumerated() where key != 0 {
            let id = ids[positions?[position] ?? position]
            pairs[ObjectID(scope: id.scope, key: .temporary(key))] = id
        }
        return pairs
    }
}
