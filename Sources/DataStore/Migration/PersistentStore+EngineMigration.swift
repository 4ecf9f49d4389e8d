import DataModel
import StoreSchema

extension PersistentStore {
    /// The plan that would carry the store on `engine` from the version of `model` that wrote it
    /// to `version` (the current one when nil), changing nothing; `nil` when the store is at that
    /// version. A database that holds no store is `StoreError.notAStore`.
    package static func migrationPlan(engine: any StoreEngine, model: ManagedObjectModel, to version: String?) async throws(StoreError) -> MigrationPlan? {
        try await engineCatching {
            try await engine.write { transaction -> MigrationPlan? in
                let database = MigrationDatabase(transaction, dialect: engine.dialect)
                guard let (source, target) = try storedVersionPositions(of: database, model: model, target: version) else {
                    throw StoreError.notAStore(reason: "the database has no Z_METADATA")
                }
                guard source != target else { return nil }
                return try StoreMigrator.plan(database, from: model.versions[source], to: model.versions[target])
            }
        }
    }

    /// Migrates the store on `engine` to `version` of `model` (the current one when nil), as
    /// `migrateStore(at:model:to:options:)` migrates a file: one transaction per step, which
    /// changes the tables, copies the rows, and writes the new version's metadata, or changes
    /// nothing. `opening` opens the store at a version, for the contexts of custom stages.
    ///
    /// A store to migrate is migrated under the database's migration lock, its version read again
    /// once the lock is held: processes that open a store at once migrate it once, custom stages
    /// and all, and the others wait, then find it migrated. Each step also locks `Z_METADATA` and
    /// checks the version it starts from, for processes that do not take the lock.
    ///
    /// A mapping model's step runs through `byMapping`, given the mapping and the step's source
    /// and destination versions; without it, such a step is `StoreError.unsupportedOption`.
    package static func migrate(
        engine: any StoreEngine, model: ManagedObjectModel, to version: String?, options: MigrationOptions,
        opening: (ManagedObjectModel) async throws(StoreError) -> PersistentStore,
        byMapping: ((MappingModel, Model, Model) async throws(StoreError) -> Void)? = nil
    ) async throws(StoreError) -> [MigrationPlan] {
        guard try await positions(on: engine, model: model, target: version).map({ $0.0 != $0.1 }) == true else { return [] }
        return try await engineCatching {
            try await engine.withMigrationLock { () async throws(StoreError) -> [MigrationPlan] in
                var plans: [MigrationPlan] = []
                while let (current, target) = try await positions(on: engine, model: model, target: version), current != target {
                    guard let plan = try await migrateStep(
                        from: current, to: target, on: engine, model: model, options: options, opening: opening, byMapping: byMapping)
                    else { continue }
                    plans.append(plan)
                }
                return plans
            }
        }
    }

    /// The first step from version `current` to `target`, with its custom stage's code: its plan,
    /// or `nil` when the store was found at another version or the step was a mapping model's.
    private static func migrateStep(
        from current: Int, to target: Int, on engine: any StoreEngine, model: ManagedObjectModel, options: MigrationOptions,
        opening: (ManagedObjectModel) async throws(StoreError) -> PersistentStore,
        byMapping: ((MappingModel, Model, Model) async throws(StoreError) -> Void)?
    ) async throws(StoreError) -> MigrationPlan? {
        let versions = model.versions
        let step = try MigrationStep.steps(from: current, to: target, of: versions, options: options, bundled: model.mappingModels)[0]
        let (source, destination) = (versions[step.source], versions[step.destination])
        if let mapping = step.mapping {
            guard let byMapping else {
                throw .unsupportedOption(name: "mappingModels", reason: "this store's engine does not run a mapping model's migration")
            }
            try await byMapping(mapping, source, destination)
            return nil
        }
        if let willMigrate = step.stage?.willMigrate {
            let store = try await opening(source == model.model ? model : ManagedObjectModel(model: source))
            try catching { try willMigrate(store.newContext()) }
        }
        let progress = options.progress
        let plan = try await engineCatching {
            try await engine.write { transaction -> MigrationPlan? in
                let database = MigrationDatabase(transaction, dialect: engine.dialect)
                if let lock = database.dialect.lockingTable("Z_METADATA") { try database.execute(lock, []) }
                // Another process may have migrated the store since its version was read.
                guard let stored = try readMetadata(database).versionHashes,
                      ModelVersionHashes(model: source).entitiesDiffering(from: stored).isEmpty
                else { return nil }
                let plan = try StoreMigrator.plan(database, from: source, to: destination)
                try StoreMigrator.run(plan, destination: destination, in: database, progress: progress)
                return plan
            }
        }
        guard let plan else { return nil }
        if let didMigrate = step.stage?.didMigrate {
            let store = try await opening(destination == model.model ? model : ManagedObjectModel(model: destination))
            try catching { try didMigrate(store.newContext()) }
        }
        return plan
    }

    /// The positions in `model.versions` of the store's version and of `target`, read in a
    /// transaction of their own; `nil` for a database that holds no store yet.
    private static func positions(on engine: any StoreEngine, model: ManagedObjectModel, target: String?) async throws(StoreError) -> (Int, Int)? {
        try await engineCatching {
            try await engine.write { try storedVersionPositions(of: MigrationDatabase($0, dialect: engine.dialect), model: model, target: target) }
        }
    }

    /// `versionPositions(of:model:target:)`, or `nil` for a database that holds no store yet.
    private static func storedVersionPositions(of database: MigrationDatabase, model: ManagedObjectModel, target: String?) throws -> (Int, Int)? {
        guard try database.integer(database.dialect.countOfTables(named: "Z_METADATA")) ?? 0 > 0 else { return nil }
        return try versionPositions(of: database, model: model, target: target)
    }

    /// `body`, with every error typed: the engine's become `MigrationError.database`.
    private static func engineCatching<T>(_ body: () async throws -> T) async throws(StoreError) -> T {
        do {
            return try await body()
        } catch {
            throw typed(error) { .database(message: $0) }
        }
    }
}
