import DataModel
import Foundation
import GRDB
import StoreSchema
import struct StoreSchema.Column

/// SQLite's spellings: truth values are integers, `IS` compares with `NULL`, the runtime's text
/// functions and collations run in SQL, and derived attributes are kept by triggers.
package struct SQLiteDialect: SQLDialect {
    package init() {}

    package func truth(_ value: Bool) -> String { value ? "1" : "0" }
    package func isSame(_ equal: Bool) -> String { equal ? " IS " : " IS NOT " }
    package func limit(_ limit: Int, offset: Int) -> String { " LIMIT \(limit > 0 ? limit : -1) OFFSET \(offset)" }
    package func direction(ascending: Bool) -> String { ascending ? "" : " DESC" }
    package func aggregated(_ column: String, type: AttributeType) -> String { column }
    package func total(_ value: String) -> String { "TOTAL(\(value))" }
    package func storedValue(_ value: AttributeValue) -> DatabaseValue { value.databaseValue }

    package func insertKeepingExisting(_ into: String, select: String) -> String { "INSERT OR IGNORE \(into) \(select)" }

    package var lockingRows: String { "" }
    package func sharingRows(of alias: String) -> String { "" }

    /// SQLite names the columns of `VALUES` `column1`, `column2`….
    package func valuesTable(rows: Int, columns: [String], alias: String) -> String {
        let named = columns.enumerated().map { "column\($0.offset + 1) AS \($0.element)" }.joined(separator: ", ")
        return "(SELECT \(named) FROM (VALUES \(placeholderRows(rows, columns: columns.count)))) AS \(alias)"
    }
    package var keyedTableOptions: String { " WITHOUT ROWID" }
    package var comparesUUIDsAsText: Bool { false }
    package func holdsOtherThanASCII(_ column: String) -> String { "(\(column) GLOB '*[^' || char(1) || '-' || char(127) || ']*')" }
    package var matchesTextInSQL: Bool { true }
    package var u0000Refusal: String? { nil }
    package var maintainsDerivedValuesWithTriggers: Bool { true }

    package var realType: String { "REAL" }
    package func exactNumber(_ value: SQLFragment) -> SQLFragment { value }
    package func integerCast(_ value: SQLFragment) -> SQLFragment { "CAST(" + value + " AS INTEGER)" }
    package func divisor(_ value: SQLFragment) -> SQLFragment { value }

    // MARK: Migration

    package func statementNames(_ names: Set<String>) -> StatementNames {
        StatementNames(names: names) { $0 }
    }

    package func createStatement(for table: EntityTable, in schema: StoreSchema, model: Model) -> String { schema.createStatement(for: table) }
    package func createStatement(for join: JoinTable, in schema: StoreSchema) -> String { schema.createStatement(for: join) }
    package func createStatement(for index: StoreIndex, in schema: StoreSchema) -> String { schema.createStatement(for: index) }
    package func definition(of column: Column, model: Model) -> String { column.type.rawValue }

    package var binaryType: String { "BLOB" }
    package var integerType: String { "INTEGER" }
    package var greatest: String { "max" }

    package func temporaryTable(_ name: String) -> String { "temp." + name }
    package func createTemporaryTable(_ table: String, columns: String) -> String { "CREATE TABLE \(table) (\(columns));" }
    package func createTemporaryTable(_ table: String, as select: String) -> String { "CREATE TABLE \(table) AS \(select);" }
    package var catalogQueries: (columns: String, indexes: String, triggers: String?) {
        (columns: "SELECT m.name, c.name FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS c "
            + "WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, c.cid",
         indexes: "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL",
         triggers: "SELECT name FROM sqlite_master WHERE type = 'trigger'")
    }

    package func countOfTables(named table: String) -> String {
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = \(SQLSyntax.stringLiteral(table))"
    }

    package func catalogSpellings(of names: Set<String>) -> [String: String] { [:] }

    /// A SQLite write transaction holds the whole file.
    package func lockingTable(_ table: String) -> String? { nil }
    package var keepsUnchangedIndexes: Bool { true }

    package func literal(_ value: AttributeValue, type: AttributeType) -> String? {
        switch value.databaseValue.storage {
        case .null: nil
        case .int64(let integer): String(integer)
        case .double(let double): double.isFinite ? "\(double)" : (double > 0 ? "9e999" : "-9e999")
        case .string(let string): SQLSyntax.stringLiteral(string)
        case .blob(let data): "X'" + hexDigits(Array(data)) + "'"
        }
    }
}
