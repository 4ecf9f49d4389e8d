import DataModel
import GRDB

/// The SQL a store's engine speaks, where SQLite and PostgreSQL differ in what a fetch reads: the
/// runtime writes one query for both, and these few spellings keep its meaning the same.
package enum SQLDialect: Sendable {
    case sqlite
    case postgreSQL

    /// A condition that always holds or never does: SQLite's truth values are integers, PostgreSQL's
    /// a type of their own.
    func truth(_ value: Bool) -> String {
        switch self {
        case .sqlite: value ? "1" : "0"
        case .postgreSQL: value ? "TRUE" : "FALSE"
        }
    }

    /// `lhs` and `rhs` are equal, `NULL` equal to `NULL` (or differ, when `equal` is false).
    func isSame(_ equal: Bool) -> String {
        switch self {
        case .sqlite: equal ? " IS " : " IS NOT "
        case .postgreSQL: equal ? " IS NOT DISTINCT FROM " : " IS DISTINCT FROM "
        }
    }

    /// `LIMIT … OFFSET …`, where a limit of 0 means none.
    func limit(_ limit: Int, offset: Int) -> String {
        let count = limit > 0 ? "\(limit)" : (self == .sqlite ? "-1" : "ALL")
        return " LIMIT \(count) OFFSET \(offset)"
    }

    /// The direction of an `ORDER BY` term: `NULL` sorts before every value, as in SQLite and in
    /// memory (PostgreSQL puts it last by default).
    func direction(ascending: Bool) -> String {
        switch self {
        case .sqlite: ascending ? "" : " DESC"
        case .postgreSQL: ascending ? " NULLS FIRST" : " DESC NULLS LAST"
        }
    }

    /// A value for an aggregate: PostgreSQL neither sums nor averages `boolean`, which SQLite keeps as 0 and 1.
    func aggregated(_ column: String, type: AttributeType) -> String {
        self == .postgreSQL && type == .boolean ? "CAST(\(column) AS INTEGER)" : column
    }
}

extension SQLDialect {
    /// The value a column of the attribute's type holds: a UUID is 16 bytes in SQLite, and its
    /// text in PostgreSQL, which a `uuid` column reads; a decimal goes to PostgreSQL as text,
    /// which `numeric` reads with every digit (a double would keep 15).
    func storedValue(_ value: AttributeValue) -> DatabaseValue {
        guard self == .postgreSQL else { return value.databaseValue }
        switch value {
        case .uuid(let uuid): return uuid.uuidString.databaseValue
        case .decimal(let decimal) where !decimal.isNaN:
            if case .double(let real) = value.databaseValue.storage { return "\(real)".databaseValue }
            return value.databaseValue
        default: return value.databaseValue
        }
    }

    /// `INSERT` of a row into a join table that may hold it already, which then stays.
    func insertKeepingExisting(into table: String, columns: String) -> String {
        switch self {
        case .sqlite: "INSERT OR IGNORE INTO \(table) (\(columns)) VALUES (?, ?)"
        case .postgreSQL: "INSERT INTO \(table) (\(columns)) VALUES (?, ?) ON CONFLICT DO NOTHING"
        }
    }

    /// What a `SELECT` of a row ends with to keep other writers from it until the transaction ends.
    var lockingRows: String {
        self == .postgreSQL ? " FOR UPDATE" : ""
    }
}
