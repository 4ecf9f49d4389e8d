import DataStore
import Logging
import PostgreSQLSchema
import PostgresNIO
import StoreSchema

/// A new store in a database without tables — the layout, `Z_PRIMARYKEY`, `Z_METADATA` and the
/// persistent history — or the history added to a store without, in one transaction.
enum PostgreSQLStoreCreation {
    /// The advisory lock that makes processes opening the same empty database create one store:
    /// the second waits, then finds the first one's tables.
    private static let lockKey = 0x4441_5441_4D4F_444C  // "DATAMODL"

    /// Whether the database has the history's tables.
    private static func hasHistory(_ connection: PostgresConnection, _ logger: Logger) async throws -> Bool {
        let rows = try await connection.query(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = \(HistorySchema.changeTable)",
            logger: logger)
        for try await count in rows.decode(Int.self) { return count > 0 }
        return false
    }

    /// The columns of the history's changes table.
    private static func changeColumns(_ connection: PostgresConnection, _ logger: Logger) async throws -> Set<String> {
        let rows = try await connection.query(
            "SELECT column_name::text FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = \(HistorySchema.changeTable)",
            logger: logger)
        var columns: Set<String> = []
        for try await column in rows.decode(String.self) { columns.insert(column) }
        return columns
    }

    /// Creates the store in a database without tables, and adds or drops its history as `history` asks.
    static func prepare(_ configuration: PostgresConnection.Configuration, model: ManagedObjectModel, history: HistoryTracking) async throws {
        let logger = Logger(label: "datamodelkit.postgresql")
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        do {
            try await connection.query("BEGIN", logger: logger)
            try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
            let tables = try await connection.query(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()", logger: logger)
            var isEmpty = false
            for try await count in tables.decode(Int.self) { isEmpty = count == 0 }
            var statements: [String] = []
            if isEmpty {
                let script = model.schema.postgreSQL(model: model.model, metadata: StoreMetadata(model: model.model))
                statements = script.split(separator: "\n").filter { !$0.hasPrefix("--") }.map(String.init)
            }
            let present = isEmpty ? false : try await hasHistory(connection, logger)
            if history == .disabledDeletingHistory, present {
                statements += [HistorySchema.changeTable, HistorySchema.transactionTable, HistorySchema.stringTable].map {
                    "DROP TABLE \(PostgreSQLName.quoted($0));"
                }
                statements.append(
                    #"DELETE FROM "Z_PRIMARYKEY" WHERE "Z_ENT" IN "# + "(\(HistorySchema.changeEntity), \(HistorySchema.transactionEntity), \(HistorySchema.stringEntity));")
            }
            if present, history != .disabledDeletingHistory {
                // A history with fewer tombstone columns than this model preserves values (a copy of
                // an older store's) gains the rest, as a file's does; only when some are missing,
                // since altering the table waits for every transaction that uses it.
                let existing = try await changeColumns(connection, logger)
                for index in 0..<HistorySchema.tombstoneColumnCount(of: model.model) where !existing.contains(HistorySchema.tombstoneColumn(index)) {
                    statements.append(
                        "ALTER TABLE \(PostgreSQLName.quoted(HistorySchema.changeTable)) ADD COLUMN \(PostgreSQLName.quoted(HistorySchema.tombstoneColumn(index))) bytea;")
                }
            }
            if history == .enabled, !present {
                // The history carries each save to the store's other processes.
                statements += HistorySchema.postgreSQLCreateStatements(tombstoneColumns: HistorySchema.tombstoneColumnCount(of: model.model))
                statements += HistorySchema.primaryKeyRows.map { row in
                    #"INSERT INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES ("#
                        + "\(row.number), '\(row.name)', \(row.superNumber), 0) ON CONFLICT DO NOTHING;"
                }
            }
            for statement in statements {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            try await connection.query("COMMIT", logger: logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
