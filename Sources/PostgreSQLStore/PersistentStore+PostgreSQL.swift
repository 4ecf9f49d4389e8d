import DataModel
import DataStore
import Foundation
import GRDB
import PostgreSQLSchema
import PostgresNIO
import StoreSchema

extension PersistentStore {
    /// Opens the store in the PostgreSQL database at `url` —
    /// `postgresql://user:password@host:port/database?sslmode=disable|prefer|require`, as
    /// `PostgresConnection.Configuration(url:)` reads it — creating it when the database holds
    /// no table, as a SQLite store is created in a new file.
    ///
    ///     let store = try await PersistentStore(postgreSQL: "postgresql://app@db.local/shop", model: Shop.model)
    ///     let context = store.newContext()
    ///     try await context.save()
    ///
    /// Contexts of the store fetch, fault, prefetch and save as on a SQLite store, with the same
    /// results for the same rows; the `async` forms (`try await context.fetch(request)`,
    /// `try await context.save()`) never block the caller. Text comparisons (`CONTAINS[cd]`,
    /// `MATCHES`, `LIKE`…) and sorts by `caseInsensitiveCompare` or `localizedStandardCompare`
    /// are judged in memory, exactly as a SQLite store judges them, on the rows the rest of the
    /// predicate selects; `BEGINSWITH`, `ENDSWITH` and `CONTAINS` against a constant read only the
    /// ASCII values that match, and every value with other characters.
    ///
    /// A save is one transaction. Primary keys come from `Z_PRIMARYKEY`, whose rows a save locks
    /// until it commits, so any number of processes insert at once without taking a key twice.
    /// An object changed or deleted by another process since this one read it fails the save with
    /// `SaveError.conflicts` (optimistic locking on `Z_OPT`), as on SQLite. The persistent history
    /// reads as a file's (`fetchHistory`, tombstones included). Derived attributes are computed in
    /// each save's transaction, after locking the rows they count, sum or copy. Batch requests run
    /// as on SQLite.
    ///
    /// A store written by an earlier version of the model is migrated first, as a file is
    /// (`migration`; see `migrateStore(postgreSQL:model:to:options:)`): processes that open it at
    /// once migrate it once.
    ///
    /// Opening checks the store's version hashes against the model's and throws
    /// `StoreError.modelMismatch` naming the entities that differ, `.notAStore` for a database
    /// with other tables but no store, and `.missingTable` or `.missingColumn` for a layout that
    /// lacks what the model reads.
    ///
    /// Saves are recorded as persistent history, which carries each save to the store's other
    /// processes: their observers get it as its exact `ChangeSet`, as for a save of their own.
    /// `history` can turn it off (`.disabledDeletingHistory`), for a store only one process writes;
    /// `.automatic` records it when the store has it.
    ///
    /// The store opens at most `maximumConnections` connections to the server, as queries need
    /// them; a query beyond waits for one to be free.
    public convenience init(
        postgreSQL url: String, model: ManagedObjectModel, history: HistoryTracking = .enabled, maximumConnections: Int = 10,
        migration: MigrationOptions = .automatic
    ) async throws(StoreError) {
        let (configuration, description) = try Self.configuration(postgreSQL: url)
        try await self.init(
            postgreSQL: configuration, model: model, history: history, maximumConnections: maximumConnections, url: URL(string: description),
            migration: migration)
    }

    /// Opens the store in the PostgreSQL database `configuration` names, creating it in a database
    /// without tables, as `init(postgreSQL:model:history:maximumConnections:)` does; pass a configuration
    /// of your own for TLS options a URL cannot give. `url` is the store's `url`; by default, built
    /// from the configuration.
    public convenience init(
        postgreSQL configuration: PostgresConnection.Configuration, model: ManagedObjectModel, history: HistoryTracking = .enabled,
        maximumConnections: Int = 10, url: URL? = nil, migration: MigrationOptions = .automatic
    ) async throws(StoreError) {
        if migration.migratesAutomatically {
            do {
                try await Self.migrateStore(postgreSQL: configuration, model: model, options: migration)
            } catch .migration(.unknownStoreVersion) {
                // Written by no version of the model: opening names the entities that differ.
            }
        }
        let opened = try await Self.open(configuration, model: model, creating: history)
        self.init(
            engine: PostgreSQLDatabase(
                configuration: configuration, schema: opened.schema, model: model.model, tombstoneColumns: opened.tombstoneColumns,
                maximumConnections: maximumConnections, isReadOnly: false),
            url: url ?? Self.url(of: configuration), model: model, identifier: opened.identifier, metadata: opened.metadata,
            schema: opened.schema, lastHistoryTransaction: opened.lastHistoryTransaction, tombstoneColumns: opened.tombstoneColumns)
    }

    /// Opens the existing store in the PostgreSQL database at `url` for reading only, as
    /// `init(postgreSQL:model:history:maximumConnections:)` opens it for writing: saving fails with
    /// `SaveError.database`, and the changes stay in the context. A database without a store is
    /// `StoreError.notAStore`.
    public static func readOnly(
        postgreSQL url: String, model: ManagedObjectModel, maximumConnections: Int = 10
    ) async throws(StoreError) -> PersistentStore {
        let (configuration, description) = try configuration(postgreSQL: url)
        return try await readOnly(postgreSQL: configuration, model: model, maximumConnections: maximumConnections, url: URL(string: description))
    }

    /// Opens the existing store in the PostgreSQL database `configuration` names for reading only,
    /// as `readOnly(postgreSQL:model:maximumConnections:)` does.
    public static func readOnly(
        postgreSQL configuration: PostgresConnection.Configuration, model: ManagedObjectModel, maximumConnections: Int = 10, url: URL? = nil
    ) async throws(StoreError) -> PersistentStore {
        let opened = try await open(configuration, model: model, creating: nil)
        return PersistentStore(
            engine: PostgreSQLDatabase(
                configuration: configuration, schema: opened.schema, model: model.model, tombstoneColumns: opened.tombstoneColumns,
                maximumConnections: maximumConnections, isReadOnly: true),
            url: url ?? Self.url(of: configuration), model: model, identifier: opened.identifier, metadata: opened.metadata,
            schema: opened.schema, lastHistoryTransaction: opened.lastHistoryTransaction, tombstoneColumns: opened.tombstoneColumns)
    }

    /// The configuration a `postgresql://` URL gives, and the URL without its password.
    static func configuration(postgreSQL url: String) throws(StoreError) -> (PostgresConnection.Configuration, String) {
        let location: StoreLocation
        do {
            location = try StoreLocation(url)
        } catch {
            throw .database(message: "\(error)")
        }
        guard case .postgreSQL(let configuration, let description) = location else {
            throw .database(message: "not a PostgreSQL URL: \(url) (expected postgresql://user@host:port/database)")
        }
        return (configuration, description)
    }

    static func url(of configuration: PostgresConnection.Configuration) -> URL {
        URL(string: "postgresql://\(configuration.username)@\(configuration.host ?? "localhost"):\(configuration.port ?? 5432)/\(configuration.database ?? configuration.username)")!
    }

    /// The store's identity and layout, checked against the model. When `creating`, the store is
    /// created first in a database without tables, and its history brought in line with it.
    private static func open(
        _ configuration: PostgresConnection.Configuration, model: ManagedObjectModel, creating history: HistoryTracking?
    ) async throws(StoreError) -> (
        identifier: String, metadata: StoreMetadata, schema: StoreSchema, lastHistoryTransaction: Int64?, tombstoneColumns: Int
    ) {
        do {
            if let history { try await PostgreSQLStoreCreation.prepare(configuration, model: model, history: history) }
            return try await PostgreSQLStoreOpening.check(configuration, model: model)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database(message: PostgreSQLServerError(error).description)
        }
    }
}

/// The checks of a PostgreSQL store's opening, in one read-only snapshot.
enum PostgreSQLStoreOpening {
    /// The store's identity and the model's layout as the store names its join tables; throws
    /// `StoreError` when the database holds no store, or one of another model version, or lacks
    /// a table or column the model reads.
    static func check(_ configuration: PostgresConnection.Configuration, model: ManagedObjectModel) async throws -> (
        identifier: String, metadata: StoreMetadata, schema: StoreSchema, lastHistoryTransaction: Int64?, tombstoneColumns: Int
    ) {
        let reader = try await PostgreSQLTableReader(configuration)
        do {
            let catalog = try await reader.catalog()
            guard catalog["Z_METADATA"] != nil, catalog["Z_PRIMARYKEY"] != nil, let plist = try await reader.metadata() else {
                throw StoreError.notAStore(reason: "the database has no Z_METADATA or Z_PRIMARYKEY")
            }
            let metadata: StoreMetadata
            do {
                metadata = try StoreMetadata(binaryPropertyList: plist)
            } catch {
                throw StoreError.notAStore(reason: "Z_METADATA.Z_PLIST: \(error)")
            }
            guard let hashes = metadata.versionHashes else { throw StoreError.notAStore(reason: "the metadata has no NSStoreModelVersionHashes") }
            let differing = model.versionHashes.entitiesDiffering(from: hashes)
            guard differing.isEmpty else { throw StoreError.modelMismatch(entities: differing) }
            let schema: StoreSchema
            do {
                schema = try model.schema.locatingJoinTables(among: catalog.keys.sorted()) { table, column in
                    catalog[table]?.contains(PostgreSQLName.of(column)) ?? false
                }
            } catch {
                throw StoreError.ambiguousLayout("\(error)")
            }
            for table in schema.tables {
                try checkColumns(table.columns.map(\.name), of: table.name, in: catalog)
            }
            for join in schema.joinTables { try checkColumns(join.columnNames, of: join.name, in: catalog) }
            let identifier = try await reader.identifier() ?? ""
            let hasHistory = catalog[HistorySchema.changeTable] != nil && catalog[HistorySchema.transactionTable] != nil
            let lastHistoryTransaction = hasHistory ? try await reader.lastHistoryTransaction() : nil
            // ZTOMBSTONE0, ZTOMBSTONE1…: as many as the entity with the most preserved attributes needed.
            let changeColumns = catalog[HistorySchema.changeTable] ?? []
            let tombstoneColumns = (0...).first { !changeColumns.contains(HistorySchema.tombstoneColumn($0)) } ?? 0
            try await reader.close()
            return (identifier, metadata, schema, lastHistoryTransaction, tombstoneColumns)
        } catch {
            try? await reader.close()
            throw error
        }
    }

    private static func checkColumns(_ columns: [String], of table: String, in catalog: [String: Set<String>]) throws {
        guard let present = catalog[PostgreSQLName.of(table)] else { throw StoreError.missingTable(table) }
        if let missing = columns.first(where: { !present.contains(PostgreSQLName.of($0)) }) {
            throw StoreError.missingColumn(table: table, column: missing)
        }
    }
}
