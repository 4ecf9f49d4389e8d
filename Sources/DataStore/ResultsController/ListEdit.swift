/// How a list became another: rows removed (by index in the old list), rows inserted (by index in
/// the new list), and rows whose objects changed. Rows neither removed nor inserted keep their
/// relative order. A row both removed and inserted is an object that was re-placed; whether it
/// moved is decided when the edit is reported.
struct ListEdit {
    struct Entry {
        var index: Int
        var key: Int64
        var entityNumber: Int32
    }

    /// Ascending by index.
    var removed: [Entry] = []
    /// Ascending by index.
    var inserted: [Entry] = []
    /// Rows neither removed nor inserted whose objects changed (old index).
    var updatedInPlace: [Entry] = []
    /// The keys of every changed object.
    var updated: Set<Int64> = []

    var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && updatedInPlace.isEmpty }

    /// The edit from `old` to `new` by key, in time linear in their lengths (plus n log n for the
    /// moves): rows in both lists that keep their section and their order — the longest
    /// increasing run of their old positions — stay; the others are removed and inserted.
    /// The entity closures give the entity number at a position; `sameSection` whether an old and a
    /// new position are in sections of the same name.
    init(
        from old: [Int64], _ oldEntity: (Int) -> Int32, to new: [Int64], _ newEntity: (Int) -> Int32,
        updated: Set<Int64>, sameSection: (Int, Int) -> Bool
    ) {
        self.updated = updated
        var oldIndices: [Int64: Int] = [:]
        oldIndices.reserveCapacity(old.count)
        for (index, key) in old.enumerated() { oldIndices[key] = index }
        var common: [(old: Int, new: Int)] = []
        var kept = Set<Int>()
        for (index, key) in new.enumerated() {
            if let oldIndex = oldIndices[key], sameSection(oldIndex, index) {
                common.append((oldIndex, index))
            } else {
                inserted.append(Entry(index: index, key: key, entityNumber: newEntity(index)))
            }
        }
        for position in Self.longestIncreasingRun(common.map(\.old)) { kept.insert(common[position].old) }
        for (index, key) in old.enumerated() where !kept.contains(index) {
            removed.append(Entry(index: index, key: key, entityNumber: oldEntity(index)))
        }
        var insertedAgain: [Entry] = []
        for pair in common where !kept.contains(pair.old) {
            insertedAgain.append(Entry(index: pair.new, key: new[pair.new], entityNumber: newEntity(pair.new)))
        }
        inserted = (inserted + insertedAgain).sorted { $0.index < $1.index }
        for pair in common where kept.contains(pair.old) {
            let key = new[pair.new]
            if updated.contains(key) { updatedInPlace.append(Entry(index: pair.old, key: key, entityNumber: newEntity(pair.new))) }
        }
    }

    init(removed: [Entry], inserted: [Entry], updated: Set<Int64>) {
        self.removed = removed
        self.inserted = inserted
        self.updated = updated
    }

    /// The positions (in `values`) of a longest strictly increasing subsequence, by patience sorting.
    static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        var tails: [Int] = []          // position of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var run: [Int] = []
        var position = tails.last ?? -1
        while position >= 0 {
            run.append(position)
            position = previous[position]
        }
        return run.reversed()
    }
}
