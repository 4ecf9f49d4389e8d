import DataModel
import Foundation
import GRDB
import StoreSchema

extension PersistentStore {
    /// The plan that would carry the store at `url` from the version of `model` that wrote it to
    /// `version` (the current one when nil), without changing anything; `nil` when the store is
    /// already at that version.
    public static func migrationPlan(at url: URL, model: ManagedObjectModel, to version: String? = nil) throws(StoreError) -> MigrationPlan? {
        guard FileManager.default.fileExists(atPath: url.path) else { throw .fileNotFound(path: url.path) }
        var configuration = GRDB.Configuration()
        configuration.readonly = true
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: url.path, configuration: configuration)
        } catch {
            throw .database(message: "\(error)")
        }
        return try catching {
            try database.read { db in
                let (versions, source, target) = try migrationVersions(of: .sqlite(db), at: url, model: model, target: version)
                guard source != target else { return nil }
                return try StoreMigrator.plan(.sqlite(db), from: versions[source], to: versions[target])
            }
        }
    }

    /// Migrates the store at `url` to `version` of `model` (the current one when nil), following
    /// `options.stages` where they apply and migrating lightweight elsewhere. Returns the plans run.
    @discardableResult
    public static func migrateStore(
        at url: URL, model: ManagedObjectModel, to version: String? = nil, options: MigrationOptions = .automatic
    ) throws(StoreError) -> [MigrationPlan] {
        // Asked for by name, a migration may start from the model the store carries.
        var options = options
        options.startsFromCarriedModel = true
        return try migrate(openForMigration(url), url: url, model: model, to: version, options: options)
    }

    private static func openForMigration(_ url: URL) throws(StoreError) -> DatabasePool {
        guard FileManager.default.fileExists(atPath: url.path) else { throw .fileNotFound(path: url.path) }
        do {
            return try DatabasePool(path: url.path)
        } catch {
            throw openingError(error, url: url)
        }
    }

    /// Migrates, one committed transaction per step, when the store was written by an earlier
    /// version of `model`; does nothing for a store of the current version or a new file, and
    /// throws `.unknownStoreVersion` for a store no version of the model wrote.
    @discardableResult
    static func migrate(
        _ database: some DatabaseWriter, url: URL, model: ManagedObjectModel, to version: String? = nil, options: MigrationOptions
    ) throws(StoreError) -> [MigrationPlan] {
        let found = try catching {
            try database.read { db -> ([Model], Int, Int)? in
                guard try db.tableExists("Z_METADATA") else { return nil }
                return try migrationVersions(of: .sqlite(db), at: url, model: model, target: version, carriedModel: options.startsFromCarriedModel)
            }
        }
        guard let (versions, start, target) = found, start != target else { return [] }
        var plans: [MigrationPlan] = []
        for step in try MigrationStep.steps(from: start, to: target, of: versions, options: options, bundled: model.mappingModels) {
            if let mapping = step.mapping {
                try MappingMigration.run(
                    mapping, from: versions[step.source], to: versions[step.destination], database: database, url: url, model: model, options: options)
                continue
            }
            if let willMigrate = step.stage?.willMigrate {
                try withContext(url, versions[step.source], model: model) { try willMigrate($0) }
            }
            plans.append(try lightweight(database, from: versions[step.source], to: versions[step.destination], progress: options.progress))
            if let didMigrate = step.stage?.didMigrate {
                try withContext(url, versions[step.destination], model: model) { try didMigrate($0) }
            }
        }
        return plans
    }

    /// The positions in `model.versions` of the version that wrote the store and of the target.
    /// The versions a migration of the store goes through, with the positions of the store's and
    /// of the target: `model`'s versions, or — with `carriedModel`, for a store written by a
    /// version the model no longer has — the model the store carries (its `Z_MODELCACHE`) before
    /// them. Opening a store does not start from it: it cannot tell a store of an earlier version
    /// from one of a later version of the app, which must not be downgraded; a migration asked for
    /// by name says the store is older.
    static func migrationVersions(
        of database: MigrationDatabase, at url: URL, model: ManagedObjectModel, target name: String?, carriedModel: Bool = true
    ) throws -> (versions: [Model], source: Int, target: Int) {
        do {
            let (source, target) = try versionPositions(of: database, model: model, target: name)
            return (model.versions, source, target)
        } catch StoreError.migration(.unknownStoreVersion) where carriedModel {
            // The carried model is checked against the store's version hashes as it is read.
            guard var carried = try? modelForStore(at: url) else { throw StoreError.migration(.unknownStoreVersion) }
            carried.versionName = "the model \(url.lastPathComponent) carries"
            return ([carried] + model.versions, 0, try targetPosition(in: model, named: name) + 1)
        }
    }

    /// The position in `model.versions` of the version named `name`, or of the current one.
    private static func targetPosition(in model: ManagedObjectModel, named name: String?) throws -> Int {
        guard let name else { return model.currentVersionIndex }
        guard let index = model.versions.firstIndex(where: { $0.versionLabel == name }) else { throw StoreError.migration(.noStageFrom(version: name)) }
        return index
    }

    static func versionPositions(of database: MigrationDatabase, model: ManagedObjectModel, target name: String?) throws -> (source: Int, target: Int) {
        let metadata = try readMetadata(database)
        guard let stored = metadata.versionHashes else { throw StoreError.notAStore(reason: "the metadata has no NSStoreModelVersionHashes") }
        let target = try targetPosition(in: model, named: name)
        guard let source = model.versions.lastIndex(where: { ModelVersionHashes(model: $0).entitiesDiffering(from: stored).isEmpty }) else {
            throw StoreError.migration(.unknownStoreVersion)
        }
        if source > target {
            throw StoreError.migration(.storeIsNewer(storeVersion: model.versions[source].versionLabel, modelVersion: model.versions[target].versionLabel))
        }
        return (source, target)
    }

    /// One lightweight step, in one transaction.
    private static func lightweight(
        _ database: some DatabaseWriter, from source: Model, to destination: Model, progress: MigrationProgress?
    ) throws(StoreError) -> MigrationPlan {
        try catching {
            // The transaction is the closure's own, so that a full disk at commit is seen with its cause.
            try database.writeWithoutTransaction { db in
                do {
                    var ran: MigrationPlan?
                    try db.inTransaction {
                        let plan = try StoreMigrator.plan(.sqlite(db), from: source, to: destination)
                        try StoreMigrator.run(plan, destination: destination, in: .sqlite(db), progress: progress)
                        ran = plan
                        return .commit
                    }
                    guard let ran else { throw MigrationError.database(message: "the migration did not commit") }
                    return ran
                } catch let error as DatabaseError where error.isStorageFull {
                    throw MigrationError.storageFull
                }
            }
        }
    }

    /// Runs `body` with a context on the store at `version`, opened for this only.
    private static func withContext(
        _ url: URL, _ version: Model, model: ManagedObjectModel, _ body: (ObjectContext) throws -> Void
    ) throws(StoreError) {
        let objectModel = version == model.model ? model : ManagedObjectModel(model: version)
        let store = try PersistentStore(url: url, model: objectModel, migration: .disabled)
        try catching { try body(store.newContext()) }
    }

    /// `body`, with every error typed: SQLite's become `MigrationError.database`.
    static func catching<T>(_ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw typed(error) { .custom(message: $0) }
        }
    }

    /// `error` as a `StoreError`: a migration's errors as they are, SQLite's as
    /// `MigrationError.database`, a server's full disk as `MigrationError.storageFull`, and any
    /// other as `other` makes it from its description.
    static func typed(_ error: any Error, other: (String) -> MigrationError) -> StoreError {
        switch error {
        case let error as StoreError: error
        case let error as MigrationError: .migration(error)
        case let error as DatabaseError: .migration(.database(message: error.message ?? "\(error)"))
        case let error as any StoreEngineError where error.isStorageFull: .migration(.storageFull)
        default: .migration(other("\(error)"))
        }
    }
}
