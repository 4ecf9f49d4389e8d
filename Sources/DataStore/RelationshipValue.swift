/// What an object holds for one relationship: nothing loaded yet, a to-one destination, or the
/// destinations of a to-many.
///
/// Destinations are kept as object IDs, not objects, so related objects never keep each other alive
/// and a context's memory is bounded by what it uses.
enum RelationshipValue {
    case unloaded
    case toOne(ObjectID?)
    case toMany(ObjectIDList)
}

/// Object IDs in order with constant-time membership: the destinations of a to-many relationship.
struct ObjectIDList: Equatable, Sequence {
    private(set) var ids: [ObjectID] = []
    private var members: Set<ObjectID> = []

    init(_ ids: some Sequence<ObjectID> = []) {
        for id in ids { append(id) }
    }

    var count: Int { ids.count }

    func contains(_ id: ObjectID) -> Bool { members.contains(id) }

    /// Whether `other` holds the same IDs, in any order.
    func hasSameMembers(as other: ObjectIDList) -> Bool { members == other.members }

    mutating func append(_ id: ObjectID) {
        if members.insert(id).inserted { ids.append(id) }
    }

    mutating func insert(_ id: ObjectID, at index: Int) {
        guard members.insert(id).inserted else { return }
        ids.insert(id, at: Swift.min(Swift.max(index, 0), ids.count))
    }

    mutating func remove(_ id: ObjectID) {
        guard members.remove(id) != nil, let index = ids.firstIndex(of: id) else { return }
        ids.remove(at: index)
    }

    /// Replaces `old` by `new` in place (a temporary ID that became permanent).
    mutating func replace(_ old: ObjectID, with new: ObjectID) {
        guard members.remove(old) != nil, let index = ids.firstIndex(of: old) else { return }
        ids[index] = new
        members.insert(new)
    }

    func makeIterator() -> IndexingIterator<[ObjectID]> { ids.makeIterator() }
}
