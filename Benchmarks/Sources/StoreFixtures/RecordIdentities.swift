import GRDB

/// An identity map for GRDB records: one record per row, kept by `Z_PK`, as a context keeps one
/// object per row. It lets the `Record` peer pay for identity as DataStore does: every fetched
/// row is looked up, and a row already in memory gives back its record instead of a new one.
public final class RecordIdentities<Object: Record> {
    private var records: [Int64: Object] = [:]

    public init() {}

    /// The record of the row with primary key `key`, if one is in memory.
    public subscript(key: Int64) -> Object? { records[key] }

    public func register(_ record: Object, key: Int64) {
        records[key] = record
    }

    public func forget(key: Int64) {
        records[key] = nil
    }

    /// The records of the rows `sql` selects (the primary key in the first column), uniqued.
    public func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Object] {
        var result: [Object] = []
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() {
            let key: Int64 = row[0]
            if let known = records[key] {
                result.append(known)
            } else {
                let record = try Object(row: row)
                records[key] = record
                result.append(record)
            }
        }
        return result
    }
}
