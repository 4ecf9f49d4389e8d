/// The sets an object of a context can be in, as flags on the object: asking whether an object is
/// inserted or changed happens on every property write, so it must not cost a hash lookup.
struct ChangeFlags: OptionSet {
    let rawValue: UInt8

    static let inserted = ChangeFlags(rawValue: 1)
    static let updated = ChangeFlags(rawValue: 2)
    static let deleted = ChangeFlags(rawValue: 4)
    /// Changed since the context's observers were last told.
    static let unprocessed = ChangeFlags(rawValue: 8)
    /// Told of its deletion (`prepareForDeletion`) since it was last deleted.
    static let preparedForDeletion = ChangeFlags(rawValue: 16)
    /// Not a set: whether the object's reads register with observation, kept here for the
    /// object's size.
    static let registersReads = ChangeFlags(rawValue: 32)
}

/// Objects in insertion order, with membership kept as a flag on each object (an object belongs
/// to one context, so one flag per set suffices).
struct ObjectSet {
    private let flag: ChangeFlags
    private(set) var objects: [ManagedObject] = []

    init(_ flag: ChangeFlags) {
        self.flag = flag
    }

    var isEmpty: Bool { objects.isEmpty }
    var count: Int { objects.count }

    func contains(_ object: ManagedObject) -> Bool { object.changeFlags.contains(flag) }

    mutating func insert(_ object: ManagedObject) {
        guard !object.changeFlags.contains(flag) else { return }
        object.changeFlags.insert(flag)
        objects.append(object)
    }

    /// Linear in the set's size, and only for members: removal is rare (an updated object deleted
    /// or refreshed), while insertion and lookup happen on every change.
    mutating func remove(_ object: ManagedObject) {
        guard object.changeFlags.contains(flag) else { return }
        object.changeFlags.remove(flag)
        if let position = objects.lastIndex(where: { $0 === object }) { objects.remove(at: position) }
    }

    /// Removes every member of `removed` in one pass over the set.
    mutating func remove(_ removed: [ManagedObject]) {
        var any = false
        for object in removed where object.changeFlags.contains(flag) {
            object.changeFlags.remove(flag)
            any = true
        }
        if any { objects.removeAll { !$0.changeFlags.contains(flag) } }
    }

    mutating func removeAll() {
        for object in objects { object.changeFlags.remove(flag) }
        objects.removeAll()
    }
}
