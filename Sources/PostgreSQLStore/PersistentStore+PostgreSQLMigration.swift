import DataModel
import DataStore
import PostgresNIO

extension PersistentStore {
    /// Migrates the store in the PostgreSQL database at `url` to `version` of `model` (the current
    /// one when nil), as `migrateStore(at:model:to:options:)` migrates a file, and returns the
    /// plans run. Does nothing for a store at that version, or a database without a store.
    ///
    /// Each step is one transaction, and PostgreSQL changes tables in transactions: a step that
    /// fails (data a change needs missing, a unique index refusing rows, the server going away)
    /// leaves the store as it was. Derived attributes are computed again for every row.
    ///
    /// A store to migrate is migrated under the database's migration lock (a PostgreSQL advisory
    /// lock, held on a connection of its own and released if the process dies), so servers that
    /// start at once migrate the store once, custom stages and all: the others wait for the whole
    /// migration, then find the store migrated. A custom stage's contexts save as a server
    /// store's contexts do. A mapping model's step makes every object again in a temporary file,
    /// then replaces the store's tables with the file's in one transaction.
    ///
    ///     try await PersistentStore.migrateStore(postgreSQL: "postgresql://app@db.local/shop", model: Shop.model)
    @discardableResult
    public static func migrateStore(
        postgreSQL url: String, model: ManagedObjectModel, to version: String? = nil, options: MigrationOptions = .automatic
    ) async throws(StoreError) -> [MigrationPlan] {
        try await migrateStore(postgreSQL: configuration(postgreSQL: url).0, model: model, to: version, options: options)
    }

    /// `migrateStore(postgreSQL:model:to:options:)` for the database `configuration` names.
    @discardableResult
    public static func migrateStore(
        postgreSQL configuration: PostgresConnection.Configuration, model: ManagedObjectModel, to version: String? = nil,
        options: MigrationOptions = .automatic
    ) async throws(StoreError) -> [MigrationPlan] {
        try await migrate(
            engine: migrationDatabase(configuration, model: model), model: model, to: version, options: options,
            opening: { version throws(StoreError) in
                try await PersistentStore(postgreSQL: configuration, model: version, history: .automatic, maximumConnections: 2, migration: .disabled)
            },
            byMapping: { mapping, source, destination throws(StoreError) in
                try await migrate(by: mapping, from: source, to: destination, configuration: configuration, model: model, options: options)
            })
    }

    /// The plan that would carry the store in the PostgreSQL database at `url` from the version of
    /// `model` that wrote it to `version` (the current one when nil), without changing anything;
    /// `nil` when the store is at that version. A database without a store is `StoreError.notAStore`.
    public static func migrationPlan(postgreSQL url: String, model: ManagedObjectModel, to version: String? = nil) async throws(StoreError) -> MigrationPlan? {
        try await migrationPlan(postgreSQL: configuration(postgreSQL: url).0, model: model, to: version)
    }

    /// `migrationPlan(postgreSQL:model:to:)` for the database `configuration` names.
    public static func migrationPlan(
        postgreSQL configuration: PostgresConnection.Configuration, model: ManagedObjectModel, to version: String? = nil
    ) async throws(StoreError) -> MigrationPlan? {
        try await migrationPlan(engine: migrationDatabase(configuration, model: model), model: model, to: version)
    }

    /// One connection to the database, for a migration's transactions.
    private static func migrationDatabase(_ configuration: PostgresConnection.Configuration, model: ManagedObjectModel) -> PostgreSQLDatabase {
        PostgreSQLDatabase(configuration: configuration, schema: model.schema, model: model.model, tombstoneColumns: 0, maximumConnections: 1, isReadOnly: false)
    }
}
