import DataModel
import DataStore
import Foundation
import PostgresNIO

extension PersistentStore {
    /// A mapping model's step on a server, as a file runs it: every object of the store, read at
    /// `source`, made again in a new SQLite store at `destination` in a temporary folder; then the
    /// store's tables dropped and the new store's copied in their place, in one transaction that
    /// began before the objects were read, with the store's tables locked against writes (reads
    /// go on). A failure before its commit leaves the store as it was. The persistent history does not go
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
        let sourceStore = try await readOnly(postgreSQL: configuration, model: ManagedObjectModel(model: source), maximumConnections: 2)
        let writer: PostgreSQLTableWriter
        do {
            // The transaction that replaces the store begins first, and keeps other processes from
            // writing to it while its objects are read: none of their work is lost to the copy.
            writer = try await PostgreSQLTableWriter(
                configuration, description: url(of: configuration).absoluteString, replacing: sourceStore.layoutTableNames)
        } catch {
            throw .migration(.database(message: "a mapping model's migration cannot reach the server: \(error)"))
        }
        do {
            try await writer.lockReplacedStore(writtenBy: source)
        } catch {
            await writer.rollBack()
            throw .migration(.database(message: "the store cannot be locked for a mapping model's migration: \(error)"))
        }
        do {
            try makeStore(byMapping: mapping, from: sourceStore, source: source, to: destination, at: made, model: model, options: options)
            try await StoreCopier(model: destination).copy(from: .sqlite(made), into: { writer })
        } catch {
            await writer.rollBack()
            if let error = error as? StoreError { throw error }
            throw .migration(.database(message: "the migrated store does not replace the old one: \(error)"))
        }
    }
}
