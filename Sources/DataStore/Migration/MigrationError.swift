import StoreMigration

/// Why a store could not be migrated. The store is left as it was.
public enum MigrationError: Error, Equatable, CustomStringConvertible {
    /// Changes no lightweight migration can make: every one of them, with its model location.
    case notInferable([ModelChange])
    /// Changes the store's data does not allow, with the number of rows in the way of each.
    case dataPreventsMigration([Blocked])
    /// The store was written by a version of the model later than the app's: never downgraded.
    case storeIsNewer(storeVersion: String, modelVersion: String)
    /// The store's version hashes match no version of the model.
    case unknownStoreVersion
    /// No stage leads from the store's version towards the app's.
    case noStageFrom(version: String)
    /// A custom stage's code threw, or a mapping model's migration failed.
    case custom(message: String)
    /// A mapping model names a migration policy class that ``MigrationOptions/migrationPolicies``
    /// does not provide; nothing was read or written.
    case missingMigrationPolicy(className: String, entityMapping: String)
    /// The disk, or a limit on the size of files, left no room for the migration, which writes
    /// every page it changes once more before it commits (about the size of the tables it rebuilds).
    case storageFull
    /// The database refused a statement for another reason, an I/O error among them.
    case database(message: String)

    /// A change, the number of objects that prevent it, and the keys (`Z_PK`) of the first few.
    public struct Blocked: Equatable, Sendable, CustomStringConvertible {
        public var change: ModelChange
        public var rows: Int
        public var firstKeys: [Int64]

        public init(change: ModelChange, rows: Int, firstKeys: [Int64] = []) {
            self.change = change
            self.rows = rows
            self.firstKeys = firstKeys
        }

        public var description: String {
            "\(change.location): \(change.subject): \(change.detail): \(MigrationError.objects(rows, keys: firstKeys))"
        }
    }

    /// `none in the way`, or `3 objects in the way (Z_PK 2, 5, 9)`.
    static func objects(_ count: Int, keys: [Int64]) -> String {
        guard count > 0 else { return "no object in the way" }
        let shown = keys.map(String.init).joined(separator: ", ") + (count > keys.count ? ", …" : "")
        return "\(count) object\(count == 1 ? "" : "s") in the way (Z_PK \(shown))"
    }

    public var description: String {
        switch self {
        case .notInferable(let changes):
            "the model changes cannot be inferred:\n" + changes.map { "\($0.location): error: \($0)" }.joined(separator: "\n")
        case .dataPreventsMigration(let blocked):
            "the store's data does not allow the migration:\n" + blocked.map(\.description).joined(separator: "\n")
        case .storeIsNewer(let store, let model):
            "the store was written by model version \(store), later than the app's \(model); it is never downgraded"
        case .unknownStoreVersion:
            "the store's version hashes match no version of the model"
        case .noStageFrom(let version):
            "no migration stage starts at version \(version)"
        case .custom(let message):
            "a custom migration stage failed: \(message)"
        case .missingMigrationPolicy(let className, let entityMapping):
            "the mapping model's \(entityMapping) names the migration policy \(className), which the app does not provide in MigrationOptions.migrationPolicies"
        case .storageFull:
            "the disk has no room for the migration, which needs about the size of the tables it rebuilds; nothing changed"
        case .database(let message):
            "the migration failed and changed nothing: \(message)"
        }
    }
}
