import GRDB
import StoreSchema

/// Creates or removes a store's history tables as a ``HistoryTracking`` option asks.
enum HistoryTables {
    /// Brings the store in `db` in line with `tracking`, with at least `tombstoneColumns` tombstone
    /// columns when it may write; whether it records history now.
    static func prepare(_ db: Database, _ tracking: HistoryTracking, tombstoneColumns: Int) throws -> Bool {
        let present = try db.tableExists(HistorySchema.changeTable)
        switch tracking {
        case .automatic:
            if present, !db.configuration.readonly { try addTombstoneColumns(upTo: tombstoneColumns, db) }
            return present
        case .enabled:
            if present {
                try addTombstoneColumns(upTo: tombstoneColumns, db)
            } else {
                try create(db, tombstoneColumns: tombstoneColumns)
            }
            return true
        case .disabledDeletingHistory:
            if present { try drop(db) }
            return false
        }
    }

    /// The number of `ZTOMBSTONE0…` columns the store's `ACHANGE` has.
    static func tombstoneColumnCount(_ db: Database) throws -> Int {
        let columns = Set(try db.columns(in: HistorySchema.changeTable).map(\.name))
        var count = 0
        while columns.contains(HistorySchema.tombstoneColumn(count)) { count += 1 }
        return count
    }

    /// Adds the tombstone columns a model with more preserved attributes than the store's needs.
    static func addTombstoneColumns(upTo count: Int, _ db: Database) throws {
        let present = try tombstoneColumnCount(db)
        for index in present..<max(count, present) {
            try db.execute(sql: "ALTER TABLE \(HistorySchema.changeTable) ADD COLUMN \(HistorySchema.tombstoneColumn(index)) BLOB")
        }
    }

    private static func create(_ db: Database, tombstoneColumns: Int) throws {
        for statement in HistorySchema.createStatements(tombstoneColumns: tombstoneColumns) { try db.execute(sql: statement) }
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
