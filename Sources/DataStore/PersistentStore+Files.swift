import DataModel
import Foundation
import GRDB
import StoreSchema

/// Store files as Core Data's coordinator manages them: destroyed, replaced by another store,
/// and their metadata read and written without opening them with a model.
extension PersistentStore {
    /// Removes the SQLite store at `url` with its `-wal` and `-shm` files, as Core Data's
    /// `destroyPersistentStore(at:type:options:)` does: nothing when there is no file, and
    /// `StoreError.notAStore` — removing nothing — for a file that is not a store.
    ///
    /// Close the store's contexts first: a store still open on the file goes on reading the
    /// removed file.
    public static func destroyStore(at url: URL) throws(StoreError) {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        _ = try metadataForStore(at: url)
        for path in [url.path, url.path + "-wal", url.path + "-shm"] where FileManager.default.fileExists(atPath: path) {
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw .database(message: "removing \(path): \(error)")
            }
        }
    }

    /// Replaces the store at `destination` (creating the file when there is none) with a copy of
    /// the store at `source`, as Core Data's `replacePersistentStore(at:withPersistentStoreFrom:)`
    /// does: SQLite's backup copies every page in one step, so a reader of `destination` sees the
    /// old store or the new one, never a mixture. Core Data's `migratePersistentStore(_:to:)` is
    /// this copy to a new URL, then opening the copy.
    ///
    /// `source` must be a store (`StoreError.notAStore`, `.fileNotFound`); `destination`, when it
    /// exists, too, so that no other file is overwritten.
    public static func replaceStore(at destination: URL, withStoreAt source: URL) throws(StoreError) {
        guard FileManager.default.fileExists(atPath: source.path) else { throw .fileNotFound(path: source.path) }
        _ = try metadataForStore(at: source)
        if FileManager.default.fileExists(atPath: destination.path) { _ = try metadataForStore(at: destination) }
        do {
            let from = try readOnlyDatabase(at: source)
            let to = try DatabaseQueue(path: destination.path)
            try from.backup(to: to)
            try to.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        } catch {
            throw .database(message: "copying \(source.path) to \(destination.path): \(error)")
        }
    }

    /// The metadata of the store at `url` (Core Data's `metadataForPersistentStore(type:at:)`),
    /// read without a model: its version hashes say which version of a model wrote it.
    public static func metadataForStore(at url: URL) throws(StoreError) -> StoreMetadata {
        guard FileManager.default.fileExists(atPath: url.path) else { throw .fileNotFound(path: url.path) }
        do {
            return try readOnlyDatabase(at: url).read { db in
                guard try db.tableExists("Z_METADATA") else { throw StoreError.notAStore(reason: "the database has no Z_METADATA") }
                return try readMetadata(db)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .notAStore(reason: "\(error)")
        }
    }

    /// The model the store at `url` carries, read from its `Z_MODELCACHE` without any other model:
    /// what opens a store whose app is not at hand (a customer's file, a backup, a SwiftData store).
    /// Its version hashes are checked against the store's metadata: a cache that does not describe
    /// the store is `StoreError.noCarriedModel`, naming the entities that differ.
    public static func modelForStore(at url: URL) throws(StoreError) -> Model {
        let metadata = try metadataForStore(at: url)
        let blob: Data?
        do {
            blob = try readOnlyDatabase(at: url).read { db in
                try db.tableExists("Z_MODELCACHE") ? try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE") : nil
            }
        } catch {
            throw .database(message: "reading the model cache of \(url.path): \(error)")
        }
        guard let blob else { throw .noCarriedModel(reason: "it has no Z_MODELCACHE (Core Data wrote one from 2011 on)") }
        let model: Model
        do {
            model = try ModelCache.decode(Array(blob), path: url.lastPathComponent)
        } catch {
            throw .noCarriedModel(reason: "\(error)")
        }
        if let stored = metadata.versionHashes {
            let differing = ModelVersionHashes(model: model).entitiesDiffering(from: stored)
            guard differing.isEmpty else {
                throw .noCarriedModel(reason: "its cached model does not describe it: the version hashes of \(differing.joined(separator: ", ")) differ")
            }
        }
        return model
    }

    /// Writes `metadata` into the store at `url`, which no process has open, as Core Data's
    /// `setMetadata(_:forPersistentStoreOfType:at:)` does. The keys that say which model wrote the
    /// store keep their stored values (`StoreMetadata.modelKeys`).
    public static func setMetadata(_ metadata: StoreMetadata, forStoreAt url: URL) throws(StoreError) {
        let stored = try metadataForStore(at: url)
        do {
            try DatabaseQueue(path: url.path).write { db in
                try db.execute(
                    sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [Data(metadata.withModelKeys(of: stored).binaryPropertyList)])
            }
        } catch {
            throw .database(message: "writing the metadata of \(url.path): \(error)")
        }
    }

    /// Writes `metadata` into this store, as Core Data's `setMetadata(_:for:)` followed by a save
    /// does, in a transaction of its own: an app's own keys (a sync token, the last import) beside
    /// Core Data's. The keys that say which model wrote the store keep their values.
    public func setMetadata(_ metadata: StoreMetadata) throws(StoreError) {
        let merged = metadata.withModelKeys(of: self.metadata)
        do {
            _ = try engine.write { transaction in
                try transaction.execute("UPDATE \(.Z_METADATA) SET \(.Z_PLIST) = ?", arguments: [Data(merged.binaryPropertyList).databaseValue])
            }
        } catch {
            throw .database(message: "writing the store's metadata: \(error)")
        }
        currentMetadata.withLock { $0 = merged }
    }

    /// The file at `url`, opened for reading only: its metadata and pages, never a write.
    static func readOnlyDatabase(at url: URL) throws -> DatabaseQueue {
        var configuration = GRDB.Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }
}
