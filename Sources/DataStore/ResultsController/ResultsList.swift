import GRDB

/// A results controller's list: the key of every match in order — all of them, not only those in
/// the request's offset and limit, so that the window stays right as rows come and go — and,
/// with sections, the length of each run of equal section values. 8 bytes per row (12 with
/// subentities) plus one entry per section: rows themselves load by key when read. Keys are kept in
/// chunks, so that a change costs about the same in a list of any length.
///
/// A key is the row's `Z_PK`, or minus the temporary number of an object not saved yet.
struct ResultsList {
    var keys = ChunkedArray<Int64>()
    /// Each row's `Z_ENT`, when the entity has subentities.
    var entityNumbers: ChunkedArray<Int32>?
    /// The runs of equal section values in order; empty without a section key path.
    var runs: [SectionRun] = []
    /// The keys of unsaved objects in the list: a new object whose key is not here is not in the
    /// list, which spares looking through it.
    var temporaryKeys: Set<Int64> = []

    struct SectionRun {
        var value: DatabaseValue
        var name: String
        var count: Int
    }

    /// A row to insert: its place in the new list, key, entity and section value.
    struct Row {
        var index: Int
        var key: Int64
        var entityNumber: Int32
        var section: (value: DatabaseValue, name: String)?
    }

    var count: Int { keys.count }

    /// Whether the section lengths add up to the keys, as they do when both were read in the same
    /// state of the store.
    var sectionsAddUp: Bool { runs.reduce(0) { $0 + $1.count } == keys.count }

    /// The index of `key`, or `nil`.
    mutating func index(of key: Int64) -> Int? {
        mayContain(key) ? keys.position(of: key) : nil
    }

    /// Whether `key` may be in the list: `false` for an unsaved object the list does not hold,
    /// known without looking.
    func mayContain(_ key: Int64) -> Bool {
        key >= 0 || temporaryKeys.contains(key)
    }

    /// The index of the first row of each run.
    var runStarts: [Int] {
        var starts: [Int] = []
        starts.reserveCapacity(runs.count)
        var start = 0
        for run in runs {
            starts.append(start)
            start += run.count
        }
        return starts
    }

    /// The run holding row `index`.
    func run(containing index: Int, starts: [Int]) -> Int {
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Removes the rows at `indices` (ascending).
    mutating func remove(at indices: [Int]) {
        guard !indices.isEmpty else { return }
        for index in indices where keys[index] < 0 { temporaryKeys.remove(keys[index]) }
        if !runs.isEmpty {
            let starts = runStarts
            for index in indices { runs[run(containing: index, starts: starts)].count -= 1 }
            runs.removeAll { $0.count == 0 }
        }
        if indices.count <= 16 {
            for index in indices.reversed() {
                keys.remove(at: index)
                entityNumbers?.remove(at: index)
            }
        } else {
            let removed = Set(indices)
            keys = ChunkedArray(keys.enumerated().compactMap { removed.contains($0.offset) ? nil : $0.element }, chunkCapacity: keys.chunkCapacity)
            entityNumbers = entityNumbers.map { ChunkedArray($0.enumerated().compactMap { removed.contains($0.offset) ? nil : $0.element }, chunkCapacity: $0.chunkCapacity) }
        }
    }

    /// Inserts `rows` (ascending by index, each index its place in the final list).
    mutating func insert(_ rows: [Row]) {
        for row in rows {
            if row.key < 0 { temporaryKeys.insert(row.key) }
            keys.insert(row.key, at: row.index)
            entityNumbers?.insert(row.entityNumber, at: row.index)
            if let section = row.section { insertIntoRun(section, at: row.index) }
        }
    }

    /// Counts a new row at `index` in the run of its value, or starts a run there. The list is
    /// sorted by section value first, so a row lands inside or beside the run of equal values.
    private mutating func insertIntoRun(_ section: (value: DatabaseValue, name: String), at index: Int) {
        let newRun = SectionRun(value: section.value, name: section.name, count: 1)
        var start = 0
        for position in runs.indices {
            let end = start + runs[position].count
            if index <= end {
                if Self.sameSection(runs[position].value, section.value) {
                    runs[position].count += 1
                    return
                }
                if index == start {
                    runs.insert(newRun, at: position)
                    return
                }
                if index < end {
                    // Inside a run of another value: only an inconsistent order gets here; split.
                    let tail = SectionRun(value: runs[position].value, name: runs[position].name, count: end - index)
                    runs[position].count = index - start
                    runs.insert(contentsOf: [newRun, tail], at: position + 1)
                    return
                }
            }
            start = end
        }
        runs.append(newRun)
    }

    static func sameSection(_ lhs: DatabaseValue, _ rhs: DatabaseValue) -> Bool {
        StoredValueOrder.compare(lhs, rhs) == 0
    }
}

extension ResultsList {
    /// The list key of `id`.
    static func key(of id: ObjectID) -> Int64 {
        switch id.key {
        case .permanent(let key): key
        case .temporary(let number): -Int64(truncatingIfNeeded: number)
        }
    }

    /// Whether the row keyed `lhs` comes before the row keyed `rhs` when their sort values are
    /// equal: saved rows by `Z_PK`, then unsaved objects in insertion order — the store order.
    static func keyPrecedes(_ lhs: Int64, _ rhs: Int64) -> Bool {
        switch (lhs > 0, rhs > 0) {
        case (true, true): lhs < rhs
        case (true, false): true
        case (false, true): false
        case (false, false): lhs > rhs
        }
    }
}
