import DataStore
import Logging
import PostgresNIO
import StoreSchema

/// A new store in a database without tables: the layout, `Z_PRIMARYKEY` and `Z_METADATA`, in one
/// transaction.
enum PostgreSQLStoreCreation {
    /// The advisory lock that makes processes opening the same empty database create one store:
    /// the second waits, then finds the first one's tables.
    private static let lockKey = 0x4441_5441_4D4F_444C  // "DATAMODL"

    static func createIfEmpty(_ configuration: PostgresConnection.Configuration, model: ManagedObjectModel) async throws {
        let logger = Logger(label: "datamodelkit.postgresql")
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        do {
            try await connection.query("BEGIN", logger: logger)
            try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
            let tables = try await connection.query(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()", logger: logger)
            var isEmpty = false
            for try await count in tables.decode(Int.self) { isEmpty = count == 0 }
            if isEmpty {
                let script = model.schema.postgreSQL(model: model.model, metadata: StoreMetadata(model: model.model))
                for statement in script.split(separator: "\n") where !statement.hasPrefix("--") {
                    try await connection.query(PostgresQuery(unsafeSQL: String(statement)), logger: logger)
                }
            }
            try await connection.query("COMMIT", logger: logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
