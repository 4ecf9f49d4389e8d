/// Keys bound as an `IN (?,?,…)` list: in runs short enough to stay well under SQLite's limit on
/// bound parameters, one query per run.
enum KeyParameters {
    /// The most keys bound into one `IN (…)` list.
    static let runLength = 500

    /// `keys` in runs of at most `runLength`.
    static func runs(_ keys: [Int64]) -> [ArraySlice<Int64>] {
        stride(from: 0, to: keys.count, by: runLength).map { keys[$0..<min(keys.count, $0 + runLength)] }
    }

    /// `?,?,…`: `count` parameters.
    static func placeholders(_ count: Int) -> SQL {
        Array(repeating: SQL.placeholder, count: count).joined(separator: ",")
    }
}
