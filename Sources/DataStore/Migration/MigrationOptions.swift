import DataModel

/// How opening a store migrates it from an earlier version of the model, as
/// `NSPersistentContainer` does by default.
///
///     let store = try PersistentStore(url: url, model: Library.model)            // automatic
///     let staged = try PersistentStore(url: url, model: Library.model, migration: MigrationOptions(stages: [
///         .custom(from: "Library 1", to: "Library 2", willMigrate: { context in … }),
///     ]))
public struct MigrationOptions: Sendable {
    /// Whether opening migrates a store written by an earlier version of the model
    /// (`NSMigratePersistentStoresAutomaticallyOption`). Off, such a store fails to open with
    /// `StoreError.modelMismatch`.
    public var migratesAutomatically: Bool
    /// Stages between named versions, for changes a lightweight migration cannot infer alone
    /// (`NSStagedMigrationManager`). Between stages, and where none starts, versions are migrated
    /// lightweight.
    public var stages: [MigrationStage]
    /// Called as the migration advances.
    public var progress: MigrationProgress?
    /// Mapping models, each run for the step between the two versions it connects, as Core Data
    /// runs the mapping models it finds in the app's bundles.
    public var mappingModels: [MappingModel]
    /// The migration policies mapping models name, by class name as a mapping names it
    /// (`App.BookPolicy` or `BookPolicy`): Core Data's `NSEntityMigrationPolicy` subclasses.
    public var migrationPolicies: [String: @Sendable () -> any MigrationPolicy]
    /// Objects a mapping migration makes or links between saves (`MappingMigration.batchSize`;
    /// tests make it small to cross many batches with few objects).
    var mappingBatchSize = MappingMigration.batchSize
    /// Whether a store no version of the model wrote migrates from the model it carries: for
    /// migrations asked for by name (`PersistentStore.migrateStore`), not on opening.
    var startsFromCarriedModel = false

    public init(
        migratesAutomatically: Bool = true, stages: [MigrationStage] = [], progress: MigrationProgress? = nil,
        mappingModels: [MappingModel] = [], migrationPolicies: [String: @Sendable () -> any MigrationPolicy] = [:]
    ) {
        self.migratesAutomatically = migratesAutomatically
        self.stages = stages
        self.progress = progress
        self.mappingModels = mappingModels
        self.migrationPolicies = migrationPolicies
    }

    /// Lightweight migration from any earlier version: the default.
    public static let automatic = MigrationOptions()
    /// No migration: a store of another version fails to open.
    public static let disabled = MigrationOptions(migratesAutomatically: false)
}

/// One stage of a staged migration, between two named versions of the model
/// (`NSLightweightMigrationStage`, `NSCustomMigrationStage`).
///
/// A custom stage's `willMigrate` gets a context on the store at the source version, before the
/// lightweight migration to the destination; `didMigrate` one on the store at the destination
/// version, after it. Both save their context for their changes to last. Each stage commits on its
/// own, so a store interrupted between stages is wholly at one version and the next opening goes on
/// from there.
public struct MigrationStage: Sendable {
    /// The versions' names (`Library 1`), as `.xcdatamodeld` bundles name their versions.
    public var sourceVersion: String
    public var destinationVersion: String
    public var willMigrate: (@Sendable (ObjectContext) throws -> Void)?
    public var didMigrate: (@Sendable (ObjectContext) throws -> Void)?

    /// A stage Core Data infers, from `source` to `destination`.
    public static func lightweight(from source: String, to destination: String) -> MigrationStage {
        MigrationStage(sourceVersion: source, destinationVersion: destination)
    }

    /// A stage with code before and after the inferred migration from `source` to `destination`.
    public static func custom(
        from source: String, to destination: String,
        willMigrate: (@Sendable (ObjectContext) throws -> Void)? = nil, didMigrate: (@Sendable (ObjectContext) throws -> Void)? = nil
    ) -> MigrationStage {
        MigrationStage(sourceVersion: source, destinationVersion: destination, willMigrate: willMigrate, didMigrate: didMigrate)
    }
}

extension Model {
    /// The name a version goes by in stages and messages: its version name, else its path.
    var versionLabel: String {
        versionName ?? path
    }
}
