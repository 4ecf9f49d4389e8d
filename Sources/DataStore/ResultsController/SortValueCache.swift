import GRDB

/// The sort values of the rows a results controller's binary searches have read, by list key.
/// Every search reads the same middle rows first, and reading a row that is not in memory costs a
/// query; kept, a change in a list of a million rows reads only the few rows near its place.
///
/// The controller drops the entries of the rows a change affects before placing them, and all of
/// them whenever it reads the list again, so an entry always holds the values the list is sorted
/// by. Bounded: it empties when full.
struct SortValueCache {
    private var values: [Int64: [DatabaseValue]] = [:]
    private static let capacity = 4_096

    subscript(key: Int64) -> [DatabaseValue]? { values[key] }

    mutating func store(_ sortValues: [DatabaseValue], for key: Int64) {
        if values.count >= Self.capacity { values.removeAll(keepingCapacity: true) }
        values[key] = sortValues
    }

    mutating func forget(_ keys: some Sequence<Int64>) {
        guard !values.isEmpty else { return }
        for key in keys { values.removeValue(forKey: key) }
    }

    mutating func removeAll() {
        values.removeAll()
    }
}
