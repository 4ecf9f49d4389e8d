import DataModel
import Foundation
import GRDB
import GRDBSQLite
import StoreSchema
import struct StoreSchema.Column

/// SQLite's spellings: truth values are integers, `IS` compares with `NULL`, the runtime's text
/// functions and collations run in SQL, and derived attributes are kept by triggers.
package struct SQLiteDialect: SQLDialect {
    package init() {}

    /// Bare, as Core Data writes them, quoted only where SQLite could not read them bare.
    package func spelling(ofName name: String) -> String { SQLSyntax.identifier(name) }
    package func placeholder(_ number: Int) -> String { "?" }

    /// `SQLITE_MAX_VARIABLE_NUMBER` of the library in use: 32,766 from SQLite 3.32, 999 before.
    package var maximumBoundValues: Int { Self.maximumBoundValues }
    private static let maximumBoundValues = sqlite3_libversion_number() >= 3_032_000 ? 32_766 : 999

    package func truth(_ value: Bool) -> SQL { value ? "1" : "0" }
    package func isSame(_ equal: Bool) -> SQL { equal ? " IS " : " IS NOT " }
    package func limit(_ limit: Int, offset: Int) -> SQL { " LIMIT \(limit > 0 ? limit : -1) OFFSET \(offset)" }
    package func direction(ascending: Bool) -> SQL { ascending ? "" : " DESC" }
    package func aggregated(_ column: SQL, type: AttributeType) -> SQL { column }
    package func total(_ value: SQL) -> SQL { "TOTAL(\(value))" }
    package func storedValue(_ value: AttributeValue) -> DatabaseValue { value.databaseValue }

    package func insertKeepingExisting(_ into: SQL, select: SQL) -> SQL { "INSERT OR IGNORE \(into) \(select)" }

    package var lockingRows: SQL { "" }
    package func sharingRows(of alias: String) -> SQL { "" }

    /// SQLite names the columns of `VALUES` `column1`, `column2`….
    package func valuesTable(rows: Int, columns: [String], alias: String) -> SQL {
        let named = columns.enumerated().map { "column\($0.offset + 1) AS \(verbatim: $0.element)" as SQL }.joined(separator: ", ")
        return "(SELECT \(named) FROM (VALUES \(placeholderRows(rows, columns: columns.count)))) AS \(verbatim: alias)"
    }
    package var keyedTableOptions: SQL { " WITHOUT ROWID" }
    package var comparesUUIDsAsText: Bool { false }
    package func holdsOtherThanASCII(_ column: SQL) -> SQL { "(\(column) GLOB '*[^' || char(1) || '-' || char(127) || ']*')" }
    package var matchesTextInSQL: Bool { true }
    package var u0000Refusal: String? { nil }
    package var maintainsDerivedValuesWithTriggers: Bool { true }

    package var realType: SQL { "REAL" }
    package func exactNumber(_ value: SQLFragment) -> SQLFragment { value }
    package func integerCast(_ value: SQLFragment) -> SQLFragment { "CAST(" + value + " AS INTEGER)" }
    package func divisor(_ value: SQLFragment) -> SQLFragment { value }

    /// SQLite's own operators, whose integer and real arithmetic `PredicateFunction.value(of:)`
    /// follows; it has no `XOR`: the bits of either operand less those of both.
    package func operation(_ function: PredicateFunction, _ operands: [SQLFragment], inReals: Bool) -> SQLFragment {
        let operands = inReals ? operands.map { "CAST(" + $0 + " AS REAL)" } : operands
        switch function {
        case .onesComplement: return "(~" + operands[0] + ")"
        case .bitwiseXor: return "((" + operands[0] + " | " + operands[1] + ") - (" + operands[0] + " & " + operands[1] + "))"
        case .modulus: return "(" + operands[0] + " % " + operands[1] + ")"
        default: return "(" + operands[0] + SQL(verbatim: " \(function.infixOperator ?? "+") ") + operands[1] + ")"
        }
    }

    // MARK: Migration

    package func createStatement(for table: EntityTable, in schema: StoreSchema, model: Model) -> SQL { SQL(verbatim: schema.createStatement(for: table)) }
    package func createStatement(for join: JoinTable, in schema: StoreSchema) -> SQL { SQL(verbatim: schema.createStatement(for: join)) }
    package func createStatement(for index: StoreIndex, in schema: StoreSchema) -> SQL { SQL(verbatim: schema.createStatement(for: index)) }
    package func definition(of column: Column, model: Model) -> SQL { SQL(verbatim: column.type.rawValue) }

    package var binaryType: SQL { "BLOB" }
    package var integerType: SQL { "INTEGER" }
    package var greatest: SQL { "max" }

    package func temporaryTable(_ name: String) -> SQL { "temp.\(name: name)" }
    package func createTemporaryTable(_ table: SQL, columns: SQL) -> SQL { "CREATE TABLE \(table) (\(columns));" }
    package func createTemporaryTable(_ table: SQL, as select: SQL) -> SQL { "CREATE TABLE \(table) AS \(select);" }
    package var catalogQueries: (columns: SQL, indexes: SQL, triggers: SQL?) {
        (columns: "SELECT m.name, c.name FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS c "
            + "WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, c.cid",
         indexes: "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL",
         triggers: "SELECT name FROM sqlite_master WHERE type = 'trigger'")
    }

    package func countOfTables(named table: String) -> SQL {
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = \(verbatim: SQLSyntax.stringLiteral(table))"
    }

    package func catalogSpellings(of names: Set<String>) -> [String: String] { [:] }

    /// A SQLite write transaction holds the whole file.
    package func lockingTable(_ table: String) -> SQL? { nil }
    package var keepsUnchangedIndexes: Bool { true }

    package func literal(_ value: AttributeValue, type: AttributeType) -> SQL? {
        let literal: String? = switch value.databaseValue.storage {
        case .null: nil
        case .int64(let integer): String(integer)
        case .double(let double): double.isFinite ? "\(double)" : (double > 0 ? "9e999" : "-9e999")
        case .string(let string): SQLSyntax.stringLiteral(string)
        case .blob(let data): "X'" + hexDigits(Array(data)) + "'"
        }
        return literal.map(SQL.init(verbatim:))
    }

    /// As it is: the column's type affinity stores a number as its declared type holds it (`3.0`
    /// in an `INTEGER` column as `3`, `3` in a `FLOAT` column as `3.0`), and Booleans are integers.
    package func converted(_ value: SQL, from source: AttributeType, to destination: AttributeType) -> SQL {
        value
    }
}

extension SQL {
    /// The statement as SQLite reads it.
    var sqliteText: String { SQLiteDialect().rendered(self) }
}
