import DataModel
import GRDB
import GRDBSQLite

/// The columns of the row a read is at: the current row of a SQLite statement, read in place, or a
/// row of values read earlier (``ReadRows``) — off the context's isolation, by an asynchronous
/// fetch.
///
/// Every column of every fetched row is read through here, so the statement case reads straight
/// from SQLite's C API; a read takes the same case for all its rows, so the branch costs nothing
/// measurable.
@usableFromInline
package enum RowColumns {
    case statement(SQLiteStatement)
    case values(UnsafeBufferPointer<DatabaseValue>)

    /// The column's value as an integer, as `sqlite3_column_int64` gives it (0 for `NULL`).
    func int64(_ column: Int32) -> Int64 {
        switch self {
        case .statement(let statement): sqlite3_column_int64(statement, column)
        case .values(let values):
            switch values[Int(column)].storage {
            case .int64(let value): value
            case .double(let value): Int64(exactly: value.rounded(.towardZero)) ?? 0
            case .string(let text): Int64(text) ?? 0
            case .null, .blob: 0
            }
        }
    }

    func isNull(_ column: Int32) -> Bool {
        switch self {
        case .statement(let statement): sqlite3_column_type(statement, column) == SQLITE_NULL
        case .values(let values): values[Int(column)].isNull
        }
    }

    /// The column's value in its storage class.
    func databaseValue(_ column: Int32) -> DatabaseValue {
        switch self {
        case .statement(let statement): DatabaseValue(sqliteStatement: statement, index: column)
        case .values(let values): values[Int(column)]
        }
    }

    /// The column's value read as an attribute of `type`.
    @inline(__always)
    func attributeValue(_ column: Int32, as type: AttributeType) -> AttributeValue {
        switch self {
        case .statement(let statement): AttributeValue(column: column, of: statement, as: type)
        case .values(let values): AttributeValue(values[Int(column)], as: type)
        }
    }
}
