import DataModel
import DataStore
import Foundation
import PostgresNIO

extension PersistentStore {
    /// A mapping model's step on a server, as a file runs it: every object of the store, read at
    /// `source`, made again in a new SQLite store at `destination` in a temporary folder; then, in
    /// one transaction, the store's tables dropped and the new store's copied in their place. A
    /// failure before that commit leaves the store as it was. The persistent history does not go
    /// through: a mapping model's migration makes every object anew, in a file as on a server.
    static func migrate(
        by mapping: MappingModel, from source: Model, to destination: Model, configuration: PostgresConnection.Configuration,
        model: ManagedObjectModel, options: MigrationOptions
    ) async throws(StoreError) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("datastore-mapping-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = folder.appendingPathComponent("store.sqlite")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .migration(.database(message: "a mapping model's migration needs a temporary folder: \(error)"))
        }
        do {
            let sourceStore = try await readOnly(postgreSQL: configuration, model: ManagedObjectModel(model: source), maximumConnections: 2)
            try makeStore(byMapping: mapping, from: sourceStore, source: source, to: destination, at: made, model: model, options: options)
        }
        do {
            let location = StoreLocation.postgreSQL(configuration, description: url(of: configuration).absoluteString)
            try await StoreCopier(model: destination).copy(from: .sqlite(made), to: location, replacing: source)
        } catch {
            throw .migration(.database(message: "the migrated store does not replace the old one: \(error)"))
        }
    }
}
