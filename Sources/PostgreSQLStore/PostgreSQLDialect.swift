import DataModel
import DataStore
import Foundation
import GRDB
import PostgreSQLSchema
import StoreSchema
import struct StoreSchema.Column

/// PostgreSQL's spellings of what the runtime's SQL says: truth values of their own type,
/// `IS [NOT] DISTINCT FROM`, `NULL` sorted first, `ON CONFLICT DO NOTHING`, `FOR UPDATE`, exact
/// numbers where a parameter would take a column's width, and the store's names in double quotes
/// (PostgreSQL folds bare names to lower case). Text is judged in memory, where the runtime's
/// comparisons run, and saves compute derived values, since the store has no triggers.
struct PostgreSQLDialect: SQLDialect {
    /// In double quotes, cut to PostgreSQL's length as the store's DDL cuts them.
    func spelling(ofName name: String) -> String { PostgreSQLName.quoted(name) }
    func placeholder(_ number: Int) -> String { "$\(number)" }
    /// The protocol's limit: a bind message counts its values in 16 bits.
    var maximumBoundValues: Int { PostgreSQLTransaction.parametersPerStatement }

    func truth(_ value: Bool) -> SQL { value ? "TRUE" : "FALSE" }
    func isSame(_ equal: Bool) -> SQL { equal ? " IS NOT DISTINCT FROM " : " IS DISTINCT FROM " }
    func limit(_ limit: Int, offset: Int) -> SQL { " LIMIT \(verbatim: limit > 0 ? "\(limit)" : "ALL") OFFSET \(offset)" }
    func direction(ascending: Bool) -> SQL { ascending ? " NULLS FIRST" : " DESC NULLS LAST" }

    /// PostgreSQL neither sums nor averages `boolean`, which SQLite keeps as 0 and 1.
    func aggregated(_ column: SQL, type: AttributeType) -> SQL {
        type == .boolean ? "CAST(\(column) AS INTEGER)" : column
    }

    func total(_ value: SQL) -> SQL { "COALESCE(SUM(\(value)), 0)" }

    /// A UUID goes as its text, which a `uuid` column reads; a decimal as text, which `numeric`
    /// reads with every digit (a double would keep 15).
    func storedValue(_ value: AttributeValue) -> DatabaseValue {
        switch value {
        case .uuid(let uuid): return uuid.uuidString.databaseValue
        case .decimal(let decimal) where !decimal.isNaN:
            if case .double(let real) = value.databaseValue.storage { return "\(real)".databaseValue }
            return value.databaseValue
        default: return value.databaseValue
        }
    }

    func insertKeepingExisting(_ into: SQL, select: SQL) -> SQL { "INSERT \(into) \(select) ON CONFLICT DO NOTHING" }

    var lockingRows: SQL { " FOR UPDATE" }
    func sharingRows(of alias: String) -> SQL { " FOR SHARE OF \(verbatim: alias)" }

    func valuesTable(rows: Int, columns: [String], alias: String) -> SQL {
        "(VALUES \(placeholderRows(rows, columns: columns.count))) AS \(verbatim: alias)(\(verbatim: columns.joined(separator: ", ")))"
    }
    var keyedTableOptions: SQL { "" }
    var comparesUUIDsAsText: Bool { true }
    func holdsOtherThanASCII(_ column: SQL) -> SQL { column + SQL(verbatim: #" ~ '[^\x01-\x7F]'"#) }
    var matchesTextInSQL: Bool { false }
    /// `text` holds every character but U+0000.
    var u0000Refusal: String? { Self.u0000Refusal }
    static let u0000Refusal = "PostgreSQL text cannot hold the character U+0000"
    var maintainsDerivedValuesWithTriggers: Bool { false }

    var realType: SQL { "DOUBLE PRECISION" }
    func exactNumber(_ value: SQLFragment) -> SQLFragment { "CAST(" + value + " AS NUMERIC)" }
    /// Truncated toward zero, as SQLite casts (PostgreSQL's cast would round).
    func integerCast(_ value: SQLFragment) -> SQLFragment { "CAST(TRUNC(CAST(" + value + " AS NUMERIC)) AS BIGINT)" }
    /// PostgreSQL would fail a division by zero.
    func divisor(_ value: SQLFragment) -> SQLFragment { "NULLIF(" + value + ", 0)" }

    /// Integers computed exactly in `NUMERIC`, where `BIGINT` would fail past 64 bits (SQLite and
    /// memory go on in reals there), divided with `DIV`, which truncates as SQLite does; bits of
    /// `BIGINT`; reals in `DOUBLE PRECISION`. By zero, `NULL`.
    func operation(_ function: PredicateFunction, _ operands: [SQLFragment], inReals: Bool) -> SQLFragment {
        let type: SQL = inReals ? "DOUBLE PRECISION" : function.isBitwise ? "BIGINT" : "NUMERIC"
        let operands = operands.map { "CAST(" + $0 + " AS \(type))" }
        switch function {
        case .onesComplement: return "(~" + operands[0] + ")"
        case .bitwiseXor: return "(" + operands[0] + " # " + operands[1] + ")"
        case .divide where !inReals: return "DIV(" + operands[0] + ", " + divisor(operands[1]) + ")"
        case .divide: return "(" + operands[0] + " / " + divisor(operands[1]) + ")"
        case .modulus: return "MOD(" + operands[0] + ", " + divisor(operands[1]) + ")"
        default: return "(" + operands[0] + SQL(verbatim: " \(function.infixOperator ?? "+") ") + operands[1] + ")"
        }
    }

    // MARK: Migration

    func createStatement(for table: EntityTable, in schema: StoreSchema, model: Model) -> SQL {
        SQL(verbatim: schema.postgreSQLCreateStatement(for: table, types: PostgreSQLColumnTypes(model: model)))
    }

    func createStatement(for join: JoinTable, in schema: StoreSchema) -> SQL { SQL(verbatim: schema.postgreSQLCreateStatement(for: join)) }
    func createStatement(for index: StoreIndex, in schema: StoreSchema) -> SQL { SQL(verbatim: schema.postgreSQLCreateStatement(for: index)) }
    func definition(of column: Column, model: Model) -> SQL { SQL(verbatim: PostgreSQLColumnTypes(model: model).definition(of: column)) }

    var binaryType: SQL { "bytea" }
    var integerType: SQL { "bigint" }
    var greatest: SQL { "GREATEST" }

    /// Temporary tables go at the latest with the transaction: the connection serves other work after.
    func temporaryTable(_ name: String) -> SQL { .name(name) }
    func createTemporaryTable(_ table: SQL, columns: SQL) -> SQL { "CREATE TEMP TABLE \(table) (\(columns)) ON COMMIT DROP;" }
    func createTemporaryTable(_ table: SQL, as select: SQL) -> SQL { "CREATE TEMP TABLE \(table) ON COMMIT DROP AS \(select);" }

    func countOfTables(named table: String) -> SQL {
        "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = \(verbatim: SQLSyntax.stringLiteral(table))"
    }

    /// Indexes a table's primary key makes are the table's own, and go with it.
    var catalogQueries: (columns: SQL, indexes: SQL, triggers: SQL?) {
        (columns: "SELECT table_name::text, column_name::text FROM information_schema.columns WHERE table_schema = current_schema() "
            + "ORDER BY table_name, ordinal_position",
         indexes: "SELECT i.relname::text, t.relname::text, pg_get_indexdef(i.oid) FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid "
            + "JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace "
            + "WHERE n.nspname = current_schema() AND NOT x.indisprimary ORDER BY i.relname",
         triggers: nil)
    }

    /// Names past 63 bytes are cut as the store's DDL cuts them (`PostgreSQLName`).
    func catalogSpellings(of names: Set<String>) -> [String: String] {
        Dictionary(names.map { (PostgreSQLName.of($0), $0) }, uniquingKeysWith: { first, _ in first })
    }

    func lockingTable(_ table: String) -> SQL? { "LOCK TABLE \(name: table) IN EXCLUSIVE MODE" }
    var keepsUnchangedIndexes: Bool { false }

    /// Typed by a cast: PostgreSQL gives a literal the type it reads it as (`1` an integer, never
    /// a boolean).
    func literal(_ value: AttributeValue, type: AttributeType) -> SQL? {
        let literal: String? = switch storedValue(value).storage {
        case .null: nil
        case .int64(let integer): String(integer)
        case .double(let double): double.isFinite ? "\(double)" : (double > 0 ? "'Infinity'" : "'-Infinity'")
        case .string(let string): SQLSyntax.stringLiteral(string)
        case .blob(let data): "'\\x" + hexDigits(Array(data)) + "'"
        }
        return literal.map { SQL(verbatim: "CAST(\($0) AS \(PostgreSQLColumnTypes.type(of: type)))") }
    }

    /// Numbers of every type assign to each other's columns (rounded to a whole number for an
    /// integer column); a Boolean is no number here, so it is compared with 0 or cast.
    func converted(_ value: SQL, from source: AttributeType, to destination: AttributeType) -> SQL {
        if destination == .boolean, source != .boolean { return "(\(value) <> 0)" }
        if source == .boolean, destination != .boolean {
            return "CAST(CAST(\(value) AS integer) AS \(verbatim: PostgreSQLColumnTypes.type(of: destination)))"
        }
        return value
    }
}
