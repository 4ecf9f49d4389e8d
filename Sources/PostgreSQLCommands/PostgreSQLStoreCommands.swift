import ArgumentParser
import DataModel
import DataModelGenCommands
import DataStore
import Foundation
import PostgreSQLStore
import PostgresNIO

/// `datamodel-gen`'s PostgreSQL stores: `postgresql://` URLs for `inspect` and `migrate`, and
/// `copy-store`.
package struct PostgreSQLStoreCommands: ServerStoreCommands {
    package init() {}

    package var commands: [any ParsableCommand.Type] { [CopyStore.self] }

    package func displayName(of url: String) throws -> String {
        try StoreLocation(url).description
    }

    package func snapshot(of url: String, model: Model, into file: URL) async throws {
        try await StoreCopier(model: model).copy(from: StoreLocation(url), to: .sqlite(file))
    }

    package func migrationPlan(of url: String, model: ManagedObjectModel, to version: String?) async throws -> MigrationPlan? {
        try await PersistentStore.migrationPlan(postgreSQL: configuration(url), model: model, to: version)
    }

    package func migrate(_ url: String, model: ManagedObjectModel, to version: String?, options: MigrationOptions) async throws {
        try await PersistentStore.migrateStore(postgreSQL: configuration(url), model: model, to: version, options: options)
    }

    /// PostgresNIO leaves the server's message out of an error's `description`.
    package func message(for error: any Error) -> String {
        error is PSQLError ? String(reflecting: error) : "\(error)"
    }

    private func configuration(_ url: String) throws -> PostgresConnection.Configuration {
        try PostgresConnection.Configuration(url: url)
    }
}
