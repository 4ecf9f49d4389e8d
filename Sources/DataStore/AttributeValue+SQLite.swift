import DataModel
import Foundation
import GRDB
import GRDBSQLite

/// Core Data's storage rules (format reference §2.3): dates as seconds since 2001-01-01, UUIDs as
/// 16 raw bytes, URIs as text, Booleans as 0/1, Decimal as REAL.
extension AttributeValue {
    /// The value of a column read as an attribute of `type`; values of another storage class (a
    /// store written by hand) are converted when they can be, else read as `null`.
    init(_ stored: DatabaseValue, as type: AttributeType) {
        switch (stored.storage, type) {
        case (.null, _): self = .null
        case (.int64(let value), .integer16), (.int64(let value), .integer32), (.int64(let value), .integer64):
            self = .integer(value)
        case (.double(let value), .integer16), (.double(let value), .integer32), (.double(let value), .integer64):
            self = value.isFinite ? .integer(Int64(value)) : .null
        case (.int64(let value), .boolean): self = .bool(value != 0)
        case (.double(let value), .boolean): self = .bool(value != 0)
        case (.double(let value), .double), (.double(let value), .float): self = .double(value)
        case (.int64(let value), .double), (.int64(let value), .float): self = .double(Double(value))
        case (.double(let value), .decimal): self = .decimal(Decimal(string: String(value)) ?? Decimal(value))
        case (.int64(let value), .decimal): self = .decimal(Decimal(value))
        // NSDecimalNumber's not-a-number is stored as the text "NaN".
        case (.string(let value), .decimal): self = Decimal(string: value).map(AttributeValue.decimal) ?? (value == "NaN" ? .decimal(.nan) : .null)
        case (.string(let value), .string): self = .string(value)
        case (.int64(let value), .string): self = .string(String(value))
        case (.double(let value), .string): self = .string(String(value))
        case (.double(let value), .date): self = .date(Date(timeIntervalSinceReferenceDate: value))
        case (.int64(let value), .date): self = .date(Date(timeIntervalSinceReferenceDate: Double(value)))
        case (.blob(let value), .binary), (.blob(let value), .transformable): self = .data(value)
        case (.string(let value), .binary), (.string(let value), .transformable): self = .data(Data(value.utf8))
        case (.blob(let value), .uuid) where value.count == 16:
            self = .uuid(value.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
        case (.string(let value), .uuid): self = UUID(uuidString: value).map(AttributeValue.uuid) ?? .null
        case (.string(let value), .uri): self = URL(string: value).map(AttributeValue.url) ?? .null
        case (.blob(let value), .uri): self = URL(string: String(decoding: value, as: UTF8.self)).map(AttributeValue.url) ?? .null
        case (.int64(let value), _): self = .integer(value)
        case (.double(let value), _): self = .double(value)
        case (.string(let value), _): self = .string(value)
        case (.blob(let value), _): self = .data(value)
        }
    }

    /// The value of `column` in the current row of `statement`, read as an attribute of `type`.
    /// Reads the common storage classes straight from SQLite's C API: this runs for every column of
    /// every fetched row.
    ///
    /// The column is taken once as a value (`sqlite3_column_value`), whose type and contents are then
    /// read without the connection's mutex, where each `sqlite3_column_*` call takes it again. The
    /// value is read before the statement moves, on the connection's own queue, which is what the
    /// mutex would otherwise guarantee.
    init(column: Int32, of statement: SQLiteStatement, as type: AttributeType) {
        let value = sqlite3_column_value(statement, column)
        switch (sqlite3_value_type(value), type) {
        case (SQLITE_NULL, _): self = .null
        case (SQLITE_INTEGER, .integer16), (SQLITE_INTEGER, .integer32), (SQLITE_INTEGER, .integer64):
            self = .integer(sqlite3_value_int64(value))
        case (SQLITE_INTEGER, .boolean): self = .bool(sqlite3_value_int64(value) != 0)
        case (SQLITE_FLOAT, .double), (SQLITE_FLOAT, .float): self = .double(sqlite3_value_double(value))
        case (SQLITE_INTEGER, .double), (SQLITE_INTEGER, .float):
            self = .double(Double(sqlite3_value_int64(value)))
        // A date column's affinity is NUMERIC: whole seconds are stored as integers.
        case (SQLITE_FLOAT, .date), (SQLITE_INTEGER, .date):
            self = .date(Date(timeIntervalSinceReferenceDate: sqlite3_value_double(value)))
        case (SQLITE_TEXT, .string): self = .string(Self.text(of: value))
        default: self.init(DatabaseValue(sqliteStatement: statement, index: column), as: type)
        }
    }

    /// The text of an SQLite value of storage class `TEXT`.
    static func text(of value: OpaquePointer?) -> String {
        // The text first, then its length, as SQLite's documentation asks.
        let start = sqlite3_value_text(value)
        return String(decoding: UnsafeRawBufferPointer(start: start, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
    }

    /// The value as the store keeps it.
    package var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let value): value.databaseValue
        case .double(let value): value.databaseValue
        case .decimal(let value): value.isNaN ? "NaN".databaseValue : NSDecimalNumber(decimal: value).doubleValue.databaseValue
        case .bool(let value): (value ? 1 : 0 as Int64).databaseValue
        case .string(let value): value.databaseValue
        case .date(let value): value.timeIntervalSinceReferenceDate.databaseValue
        case .data(let value): value.databaseValue
        case .uuid(let value): withUnsafeBytes(of: value.uuid) { Data($0) }.databaseValue
        case .url(let value): value.absoluteString.databaseValue
        // A composite has no column of its own: its leaves are stored one per column.
        case .composite: .null
        }
    }
}
