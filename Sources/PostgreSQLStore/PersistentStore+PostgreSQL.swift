import DataModel
import DataStore
import Foundation
import GRDB
import PostgresNIO
import StoreSchema

extension PersistentStore {
    /// Opens the store in the PostgreSQL database at `url` for reading:
    /// `postgresql://user:password@host:port/database?sslmode=disable|prefer|require`, as
    /// `PostgresConnection.Configuration(url:)` reads it. `datamodel-gen copy-store` puts a SQLite
    /// store there.
    ///
    /// Contexts of the store fetch, count, fault and prefetch as on a SQLite store, with the same
    /// results for the same rows; the `async` forms (`try await context.fetch(request)`) never
    /// block the caller. Text comparisons (`CONTAINS[cd]`, `MATCHES`, `LIKE`…) and sorts by
    /// `caseInsensitiveCompare` or `localizedStandardCompare` are judged in memory, exactly as a
    /// SQLite store judges them, on the rows the rest of the predicate selects. Saving fails:
    /// the store is open for reading only.
    ///
    /// Opening checks the store's version hashes against the model's and throws
    /// `StoreError.modelMismatch` naming the entities that differ, `.notAStore` for a database
    /// without a store, and `.missingTable` or `.missingColumn` for a layout that lacks what the
    /// model reads.
    ///
    /// The store opens at most `maximumConnections` connections to the server, as queries need
    /// them; a query beyond waits for one to be free.
    public static func readOnly(
        postgreSQL url: String, model: ManagedObjectModel, maximumConnections: Int = 10
    ) async throws(StoreError) -> PersistentStore {
        let location: StoreLocation
        do {
            location = try StoreLocation(url)
        } catch {
            throw .database(message: "\(error)")
        }
        guard case .postgreSQL(let configuration, let description) = location else {
            throw .database(message: "not a PostgreSQL URL: \(url) (expected postgresql://user@host:port/database)")
        }
        return try await readOnly(postgreSQL: configuration, model: model, maximumConnections: maximumConnections, url: URL(string: description))
    }

    /// Opens the store in the PostgreSQL database `configuration` names for reading, as
    /// `readOnly(postgreSQL:model:maximumConnections:)` does; pass a configuration of your own for
    /// TLS options a URL cannot give. `url` is the store's `url`; by default, built from the
    /// configuration.
    public static func readOnly(
        postgreSQL configuration: PostgresConnection.Configuration, model: ManagedObjectModel, maximumConnections: Int = 10, url: URL? = nil
    ) async throws(StoreError) -> PersistentStore {
        let url = url ?? URL(string: "postgresql://\(configuration.username)@\(configuration.host ?? "localhost"):\(configuration.port ?? 5432)/\(configuration.database ?? configuration.username)")!
        let opened: (identifier: String, metadata: StoreMetadata, schema: StoreSchema)
        do {
            opened = try await PostgreSQLStoreOpening.check(configuration, model: model)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database(message: PostgreSQLServerError(error).description)
        }
        let database = PostgreSQLDatabase(
            configuration: configuration, names: opened.schema.layoutNames, maximumConnections: maximumConnections)
        return PersistentStore(
            server: database, url: url, model: model, identifier: opened.identifier, metadata: opened.metadata, schema: opened.schema)
    }
}

/// The checks of a PostgreSQL store's opening, in one read-only snapshot.
enum PostgreSQLStoreOpening {
    /// The store's identity and the model's layout as the store names its join tables; throws
    /// `StoreError` when the database holds no store, or one of another model version, or lacks
    /// a table or column the model reads.
    static func check(_ configuration: PostgresConnection.Configuration, model: ManagedObjectModel) async throws -> (
        identifier: String, metadata: StoreMetadata, schema: StoreSchema
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
            let schema = model.schema.locatingJoinTables(among: catalog.keys.sorted()) { table, column in
                catalog[table]?.contains(PostgreSQLName.of(column)) ?? false
            }
            for table in schema.tables {
                try checkColumns(table.columns.map(\.name), of: table.name, in: catalog)
            }
            for join in schema.joinTables { try checkColumns(join.columnNames, of: join.name, in: catalog) }
            let identifier = try await reader.identifier() ?? ""
            try await reader.close()
            return (identifier, metadata, schema)
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

extension StoreSchema {
    /// The names of every table and column of the layout, as the runtime's SQL spells them.
    var layoutNames: Set<String> {
        var names: Set<String> = []
        for table in tables {
            names.insert(table.name)
            names.formUnion(table.columns.map(\.name))
        }
        for join in joinTables {
            names.insert(join.name)
            names.formUnion(join.columnNames)
        }
        return names
    }
}
