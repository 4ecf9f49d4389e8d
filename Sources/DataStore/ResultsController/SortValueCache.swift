import GRDB

/// The sort values of the rows a results controller's binary searches have read, by list key.
/// Reading a row that is not in memory costs a query; kept, a change in a list of a million rows
/// reads only the few rows near its place.
///
/// Two tiers. The *fences* are the values of each key chunk's first row, where every search
/// starts (`ResultsList.keys`): read with the list, so that a search finds its chunk in memory,
/// and kept until the list is read again. The other rows' values are bounded: they empty when
/// full. The controller drops the entries of the rows a change affects before placing them, and
/// all of them whenever it reads the list again, so an entry always holds the values the list is
/// sorted by.
struct SortValueCache {
    private var fences: [Int64: [DatabaseValue]]
    private var values: [Int64: [DatabaseValue]] = [:]
    private static let capacity = 4_096

    /// A cache holding `fences`: the values of chunks' first rows, by key.
    init(fences: [Int64: [DatabaseValue]] = [:]) {
        self.fences = fences
    }

    subscript(key: Int64) -> [DatabaseValue]? { values[key] ?? fences[key] }

    /// Keeps the values of the row keyed `key`; as a fence when it starts a chunk.
    mutating func store(_ sortValues: [DatabaseValue], for key: Int64, isFence: Bool) {
        if isFence {
            fences[key] = sortValues
        } else {
            if values.count >= Self.capacity { values.removeAll(keepingCapacity: true) }
            values[key] = sortValues
        }
    }

    mutating func forget(_ keys: some Sequence<Int64>) {
        guard !values.isEmpty || !fences.isEmpty else { return }
        for key in keys {
            values.removeValue(forKey: key)
            fences.removeValue(forKey: key)
        }
    }

    mutating func removeAll() {
        values.removeAll()
        fences.removeAll()
    }
}
