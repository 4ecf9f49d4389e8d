import GRDB
import StoreSchema

/// What a store holds before a migration: its tables and columns as they are (a store Core Data
/// migrated before may differ from a fresh layout), its indexes and triggers, and `Z_PRIMARYKEY`.
struct StoreSnapshot: Sendable {
    struct PrimaryKeyRow: Sendable {
        var number: Int
        var name: String
        var superNumber: Int
        var max: Int64
    }

    struct Index: Sendable {
        var name: String
        var table: String
        var sql: String
    }

    /// Column names by table, in the tables' order.
    var columns: [String: [String]]
    var indexes: [Index]
    var triggers: [String]
    var primaryKeys: [PrimaryKeyRow]
    var framework: FrameworkVersion
    /// The engine's SQL, which the plan is written in.
    var dialect: any SQLDialect

    /// The store in `database`, read from its engine's catalog. An engine may keep names in
    /// another spelling (shortened to its length): those of `names` are read back as the layout
    /// spells them.
    init(_ database: MigrationDatabase, framework: FrameworkVersion, names: Set<String> = []) throws {
        self.framework = framework
        dialect = database.dialect
        let queries = dialect.catalogQueries
        let spelled = dialect.catalogSpellings(of: names)
        let name = { (row: RowColumns, column: Int32) in
            let kept = row.databaseValue(column).textValue ?? ""
            return spelled[kept] ?? kept
        }
        var columns: [String: [String]] = [:]
        try database.rows(queries.columns, []).forEach { row in columns[name(row, 0), default: []].append(name(row, 1)) }
        self.columns = columns
        var indexes: [Index] = []
        try database.rows(queries.indexes, []).forEach { row in
            indexes.append(Index(name: name(row, 0), table: name(row, 1), sql: row.databaseValue(2).textValue ?? ""))
        }
        self.indexes = indexes
        var triggers: [String] = []
        if let query = queries.triggers { try database.rows(query, []).forEach { row in triggers.append(name(row, 0)) } }
        self.triggers = triggers
        primaryKeys = []
        try database.rows("SELECT \(.Z_ENT), \(.Z_NAME), \(.Z_SUPER), \(.Z_MAX) FROM \(.Z_PRIMARYKEY) ORDER BY \(.Z_ENT)", []).forEach { row in
            primaryKeys.append(PrimaryKeyRow(
                number: Int(row.int64(0)), name: row.databaseValue(1).textValue ?? "", superNumber: Int(row.int64(2)), max: row.int64(3)))
        }
    }

    /// Whether `table` has `column` (SQLite names are case-insensitive).
    func table(_ table: String, has column: String) -> Bool {
        columns[table]?.contains { $0.caseInsensitiveCompare(column) == .orderedSame } ?? false
    }

    /// `schema` with its join tables named as the store names them.
    func located(_ schema: StoreSchema) throws(StoreError) -> StoreSchema {
        do {
            return try schema.locatingJoinTables(among: columns.keys.sorted(), where: table(_:has:))
        } catch {
            throw .ambiguousLayout("\(error)")
        }
    }

    /// The schema's join tables named as the store names them, and a missing table or column the
    /// schema names, if any: what a store must have to be opened with the schema's model.
    func missingStorage(of schema: StoreSchema) -> StoreError? {
        let located: StoreSchema
        do {
            located = try self.located(schema)
        } catch {
            return error
        }
        let needed = located.tables.map { ($0.name, $0.columns.map(\.name)) } + located.joinTables.map { ($0.name, $0.columnNames) }
        for (table, names) in needed {
            guard let present = columns[table] ?? columns.first(where: { $0.key.caseInsensitiveCompare(table) == .orderedSame })?.value
            else { return .missingTable(table) }
            if let missing = names.first(where: { name in !present.contains { $0.caseInsensitiveCompare(name) == .orderedSame } }) {
                return .missingColumn(table: table, column: missing)
            }
        }
        return nil
    }
}
