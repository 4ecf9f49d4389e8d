/// Which destination objects one entity mapping made from which source objects, kept as keys so
/// that a migration of a million objects holds 16 bytes per object rather than the objects: an
/// object made since the last batch was saved is held until the save gives it its key.
///
/// A key packs an object's entity number above its `Z_PK` (`Z_PK`s stay below 2⁴⁸), so that one
/// integer orders and finds an object of any entity.
struct MigrationAssociations {
    /// Source and destination keys, pair by pair, in the order they were made.
    private(set) var sourceKeys: [Int64] = []
    private(set) var destinationKeys: [Int64] = []
    /// Pairs made since the last save, whose destinations have no key yet.
    private(set) var pending: [(source: Int64, destination: ManagedObject)] = []
    /// Whether `sourceKeys` ascend: a migration reads its source objects in key order, so they do
    /// unless a policy associates out of order; then `bySource` orders them.
    private var sourceKeysAscend = true
    private var bySource: [Int32]?
    /// Pair positions in the order of their destination keys, made when first needed.
    private var byDestination: [Int32]?

    var count: Int { sourceKeys.count + pending.count }

    static func key(_ id: ObjectID) -> Int64? {
        id.primaryKey.map { Int64(id.entityNumber) << 48 | $0 }
    }

    static func entityNumber(of key: Int64) -> Int { Int(key >> 48) }
    static func primaryKey(of key: Int64) -> Int64 { key & (1 << 48 - 1) }

    mutating func append(source: ManagedObject, destination: ManagedObject) {
        guard let sourceKey = Self.key(source.objectID) else { return }
        if let destinationKey = Self.key(destination.objectID) {
            appendKeys(sourceKey, destinationKey)
        } else {
            pending.append((sourceKey, destination))
        }
    }

    mutating func reserve(_ count: Int) {
        sourceKeys.reserveCapacity(sourceKeys.count + pending.count + count)
        destinationKeys.reserveCapacity(destinationKeys.count + pending.count + count)
    }

    /// Turns the pending pairs into keys, once a save has given their destinations keys.
    mutating func keepPending() {
        for (source, destination) in pending {
            guard let key = Self.key(destination.objectID) else { continue }
            appendKeys(source, key)
        }
        pending.removeAll(keepingCapacity: true)
    }

    private mutating func appendKeys(_ source: Int64, _ destination: Int64) {
        if let last = sourceKeys.last, last > source { sourceKeysAscend = false }
        sourceKeys.append(source)
        destinationKeys.append(destination)
        bySource = nil
        byDestination = nil
    }

    /// The destination keys made from `source`, and the pending destinations made from it.
    mutating func destinations(of source: Int64) -> (keys: [Int64], objects: [ManagedObject]) {
        var order: [Int32]?
        if !sourceKeysAscend {
            if bySource == nil { bySource = Self.positions(orderedBy: sourceKeys) }
            order = bySource
        }
        let keys = Self.matches(of: source, in: sourceKeys, order: order).map { destinationKeys[$0] }
        return (keys, pending.filter { $0.source == source }.map(\.destination))
    }

    /// The source keys `destination` was made from.
    mutating func sources(of destination: ManagedObject) -> [Int64] {
        let pendingSources = pending.filter { $0.destination === destination }.map(\.source)
        guard let key = Self.key(destination.objectID) else { return pendingSources }
        if byDestination == nil { byDestination = Self.positions(orderedBy: destinationKeys) }
        return Self.matches(of: key, in: destinationKeys, order: byDestination).map { sourceKeys[$0] } + pendingSources
    }

    /// Positions of `keys` sorted by key.
    private static func positions(orderedBy keys: [Int64]) -> [Int32] {
        (0..<Int32(keys.count)).sorted { keys[Int($0)] < keys[Int($1)] }
    }

    /// The positions in `keys` that hold `key`, found by halving `keys` in `order` (their own when `nil`).
    private static func matches(of key: Int64, in keys: [Int64], order: [Int32]?) -> [Int] {
        func position(_ index: Int) -> Int { order.map { Int($0[index]) } ?? index }
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[position(middle)] < key { low = middle + 1 } else { high = middle }
        }
        var found: [Int] = []
        while low < keys.count, keys[position(low)] == key {
            found.append(position(low))
            low += 1
        }
        return found
    }
}
