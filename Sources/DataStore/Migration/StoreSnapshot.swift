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

    /// The store in `database`. A server keeps names cut to its length (`PostgreSQLName`): those
    /// of `names` are read back as the layout spells them.
    init(_ database: MigrationDatabase, framework: FrameworkVersion, names: Set<String> = []) throws {
        self.framework = framework
        dialect = database.dialect
        switch database.connection {
        case .sqlite(let db):
            var columns: [String: [String]] = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
                columns[table] = try db.columns(in: table).map(\.name)
            }
            self.columns = columns
            indexes = try Row.fetchAll(db, sql: "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
                .map { Index(name: $0[0], table: $0[1], sql: $0[2]) }
            triggers = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger'")
        case .server:
            let spelled = Dictionary(names.map { (PostgreSQLName.of($0), $0) }, uniquingKeysWith: { first, _ in first })
            let name = { (kept: String) in spelled[kept] ?? kept }
            var columns: [String: [String]] = [:]
            try database.rows(
                "SELECT table_name::text, column_name::text FROM information_schema.columns WHERE table_schema = current_schema() "
                    + "ORDER BY table_name, ordinal_position", []
            ).forEach { row in
                columns[name(row.databaseValue(0).textValue ?? ""), default: []].append(name(row.databaseValue(1).textValue ?? ""))
            }
            self.columns = columns
            // Indexes a table's primary key makes are the table's own, and go with it.
            var indexes: [Index] = []
            try database.rows(
                "SELECT i.relname::text, t.relname::text, pg_get_indexdef(i.oid) FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid "
                    + "JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace "
                    + "WHERE n.nspname = current_schema() AND NOT x.indisprimary ORDER BY i.relname", []
            ).forEach { row in
                indexes.append(Index(name: name(row.databaseValue(0).textValue ?? ""), table: name(row.databaseValue(1).textValue ?? ""),
                                     sql: row.databaseValue(2).textValue ?? ""))
            }
            self.indexes = indexes
            triggers = []
        }
        primaryKeys = []
        try database.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT", []).forEach { row in
            primaryKeys.append(PrimaryKeyRow(
                number: Int(row.int64(0)), name: row.databaseValue(1).textValue ?? "", superNumber: Int(row.int64(2)), max: row.int64(3)))
        }
    }

    /// Whether `table` has `column` (SQLite names are case-insensitive).
    func table(_ table: String, has column: String) -> Bool {
        columns[table]?.contains { $0.caseInsensitiveCompare(column) == .orderedSame } ?? false
    }

    /// The schema's join tables named as the store names them, and a missing table or column the
    /// schema names, if any: what a store must have to be opened with the schema's model.
    func missingStorage(of schema: StoreSchema) -> StoreError? {
        let located = schema.locatingJoinTables(among: columns.keys.sorted(), where: table(_:has:))
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
