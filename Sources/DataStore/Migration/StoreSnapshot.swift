import GRDB
import StoreSchema

/// What a store holds before a migration: its tables and columns as they are (a store Core Data
/// migrated before may differ from a fresh layout), its indexes and triggers, `Z_PRIMARYKEY`, and
/// the largest key of each table.
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
    /// `max(Z_PK)` of each entity table, or 0 when it is empty.
    var largestKeys: [String: Int64]
    var framework: FrameworkVersion

    init(_ db: Database, framework: FrameworkVersion) throws {
        self.framework = framework
        var columns: [String: [String]] = [:]
        var largestKeys: [String: Int64] = [:]
        for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
            let names = try db.columns(in: table).map(\.name)
            columns[table] = names
            if names.contains("Z_PK") {
                largestKeys[table] = try Int64.fetchOne(db, sql: "SELECT max(Z_PK) FROM \(SQLSyntax.identifier(table))") ?? 0
            }
        }
        self.columns = columns
        self.largestKeys = largestKeys
        indexes = try Row.fetchAll(db, sql: "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
            .map { Index(name: $0[0], table: $0[1], sql: $0[2]) }
        triggers = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger'")
        primaryKeys = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT").map {
            PrimaryKeyRow(number: $0[0] ?? 0, name: $0[1] ?? "", superNumber: $0[2] ?? 0, max: $0[3] ?? 0)
        }
    }

    /// Whether `table` has `column` (SQLite names are case-insensitive).
    func table(_ table: String, has column: String) -> Bool {
        columns[table]?.contains { $0.caseInsensitiveCompare(column) == .orderedSame } ?? false
    }
}
