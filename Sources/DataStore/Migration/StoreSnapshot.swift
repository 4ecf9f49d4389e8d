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

    init(_ db: Database, framework: FrameworkVersion) throws {
        self.framework = framework
        var columns: [String: [String]] = [:]
        for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
            columns[table] = try db.columns(in: table).map(\.name)
        }
        self.columns = columns
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
