import GRDB
import StoreSchema

/// Creates or removes a store's history tables as a ``HistoryTracking`` option asks.
enum HistoryTables {
    /// Brings the store in `db` in line with `tracking`; whether it records history now.
    static func prepare(_ db: Database, _ tracking: HistoryTracking) throws -> Bool {
        let present = try db.tableExists(HistorySchema.changeTable)
        switch tracking {
        case .automatic:
            return present
        case .enabled:
            if !present { try create(db) }
            return true
        case .disabledDeletingHistory:
            if present { try drop(db) }
            return false
        }
    }

    private static func create(_ db: Database) throws {
        for statement in HistorySchema.createStatements { try db.execute(sql: statement) }
        for row in HistorySchema.primaryKeyRows {
            try db.execute(
                sql: "INSERT OR IGNORE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                arguments: [row.number, row.name, row.superNumber])
        }
    }

    private static func drop(_ db: Database) throws {
        for table in [HistorySchema.changeTable, HistorySchema.transactionTable, HistorySchema.stringTable] {
            try db.execute(sql: "DROP TABLE IF EXISTS \(table)")
        }
        try db.execute(
            sql: "DELETE FROM Z_PRIMARYKEY WHERE Z_ENT IN (?, ?, ?)",
            arguments: [HistorySchema.changeEntity, HistorySchema.transactionEntity, HistorySchema.stringEntity])
    }
}
