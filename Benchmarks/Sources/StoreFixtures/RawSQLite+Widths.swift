import Foundation
import GRDBSQLite

/// The floor for objects of other widths than `Item`'s five attributes: the rows of the generated
/// fixtures' `Narrow` (one attribute) and `Wide` (twenty: `Item`'s five, four times over), read
/// through SQLite's C API into structs, or into one plain class instance each.
extension RawSQLite {
    /// `Narrow`'s row as plain Swift values.
    public struct NarrowRow {
        public var primaryKey: Int64
        public var version: Int64
        public var name: String?
    }

    /// `Item`'s five values, one of `Wide`'s four groups.
    public struct Fields {
        public var added: Date?
        public var isActive: Bool
        public var name: String?
        public var price: Double
        public var quantity: Int64
    }

    /// `Wide`'s row as plain Swift values.
    public struct WideRow {
        public var primaryKey: Int64
        public var version: Int64
        public var first: Fields
        public var second: Fields
        public var third: Fields
        public var fourth: Fields
    }

    /// A row in a plain class instance: what making an object per row costs by itself.
    public final class RowObject<Row> {
        public var row: Row

        init(_ row: Row) {
            self.row = row
        }
    }

    /// Every `Narrow` row, decoded by `narrowRow`.
    public static func fetchAllNarrow(_ db: OpaquePointer) -> [NarrowRow] {
        rows(db, "SELECT Z_PK, Z_OPT, ZNAME FROM ZNARROW ORDER BY Z_PK", narrowRow)
    }

    /// Every `Wide` row, decoded by `wideRow`.
    public static func fetchAllWide(_ db: OpaquePointer) -> [WideRow] {
        rows(db, wideSelection, wideRow)
    }

    public static func fetchAllNarrowObjects(_ db: OpaquePointer) -> [RowObject<NarrowRow>] {
        rows(db, "SELECT Z_PK, Z_OPT, ZNAME FROM ZNARROW ORDER BY Z_PK") { RowObject(narrowRow($0)) }
    }

    public static func fetchAllWideObjects(_ db: OpaquePointer) -> [RowObject<WideRow>] {
        rows(db, wideSelection) { RowObject(wideRow($0)) }
    }

    private static let wideSelection = "SELECT Z_PK, Z_OPT, "
        + (1...4).map { "ZADDED\($0), ZISACTIVE\($0), ZNAME\($0), ZPRICE\($0), ZQUANTITY\($0)" }.joined(separator: ", ")
        + " FROM ZWIDE ORDER BY Z_PK"

    private static func rows<Row>(_ db: OpaquePointer, _ sql: String, _ decode: (OpaquePointer?) -> Row) -> [Row] {
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        var rows: [Row] = []
        while sqlite3_step(statement) == SQLITE_ROW { rows.append(decode(statement)) }
        return rows
    }

    private static func narrowRow(_ statement: OpaquePointer?) -> NarrowRow {
        NarrowRow(
            primaryKey: sqlite3_column_int64(statement, 0), version: sqlite3_column_int64(statement, 1),
            name: sqlite3_column_text(statement, 2).map { String(cString: $0) })
    }

    private static func wideRow(_ statement: OpaquePointer?) -> WideRow {
        func fields(_ start: Int32) -> Fields {
            Fields(
                added: sqlite3_column_type(statement, start) == SQLITE_NULL
                    ? nil : Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, start)),
                isActive: sqlite3_column_int64(statement, start + 1) != 0,
                name: sqlite3_column_text(statement, start + 2).map { String(cString: $0) },
                price: sqlite3_column_double(statement, start + 3),
                quantity: sqlite3_column_int64(statement, start + 4))
        }
        return WideRow(
            primaryKey: sqlite3_column_int64(statement, 0), version: sqlite3_column_int64(statement, 1),
            first: fields(2), second: fields(7), third: fields(12), fourth: fields(17))
    }
}
