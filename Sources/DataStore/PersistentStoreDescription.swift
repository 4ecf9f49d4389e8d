import Foundation

/// How a ``PersistentContainer`` opens its store, as Core Data's `NSPersistentStoreDescription`
/// says it: where the store is, of which type, read-only or not, how it migrates, whether it
/// records history, and the SQLite pragmas its connections run.
///
///     var description = PersistentStoreDescription(url: storeURL)
///     description.history = .enabled
///     description.setValue("FULL", forPragmaNamed: "synchronous")
///     container.persistentStoreDescriptions = [description]
///
/// The type is ``PersistentStore/StoreType/sqlite`` (a file), ``PersistentStore/StoreType/inMemory``,
/// or one an engine's module brings: `PersistentStoreDescription.postgreSQL(url:)` in
/// `PostgreSQLStore`. As in Core Data, the URL `/dev/null` asks for a store in memory.
public struct PersistentStoreDescription: Sendable, CustomStringConvertible {
    /// The store's file; for a server's store, the database it names (without a password).
    public var url: URL?
    public var type: PersistentStore.StoreType
    /// Opens an existing store for reading only: `PersistentStore.readOnly(url:model:)`.
    public var isReadOnly = false
    /// How a store written by an earlier version of the model is brought to the current one.
    public var migration: MigrationOptions = .automatic
    /// Whether saves are recorded as persistent history (Core Data's
    /// `NSPersistentHistoryTrackingKey`).
    public var history: HistoryTracking = .automatic
    /// The configuration of the model whose entities' objects the store holds, when a container
    /// loads several stores (Core Data's `configuration`); `nil` for every entity. See
    /// ``PersistentStoreCoordinator``.
    public var configuration: String?
    /// The pragmas each SQLite connection of the store runs as it opens, by name.
    public private(set) var sqlitePragmas: [String: String] = [:]

    /// A description of the store at `url`, a SQLite file unless `type` says otherwise.
    public init(url: URL?, type: PersistentStore.StoreType = .sqlite) {
        self.url = url
        self.type = url?.path == "/dev/null" ? .inMemory : type
    }

    /// Whether a store written by an earlier version of the model migrates as it opens (Core
    /// Data's name for ``migration``'s `migratesAutomatically`). Core Data's inferred mapping
    /// needs no switch of its own here: the lightweight migration is always inferred.
    public var shouldMigrateStoreAutomatically: Bool {
        get { migration.migratesAutomatically }
        set { migration.migratesAutomatically = newValue }
    }

    /// Sets the pragma `name` for each connection of a SQLite store (`nil` removes it), as Core
    /// Data's `setValue(_:forPragmaNamed:)` does: `synchronous`, `cache_size`, `secure_delete`….
    /// A store is written ahead (`journal_mode` WAL) so that readers never wait for a writer;
    /// another journal mode fails the opening with `StoreError.unsupportedOption`.
    public mutating func setValue(_ value: String?, forPragmaNamed name: String) {
        sqlitePragmas[name] = value
    }

    /// The type and where the store is, without a password the URL holds.
    public var description: String {
        var components = url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }
        components?.password = nil
        let place = url?.isFileURL == true ? url!.path : components?.string ?? "memory"
        return "\(type) store at \(place)\(isReadOnly ? ", read-only" : "")"
    }
}

extension PersistentStore {
    /// A kind of store, as Core Data's `NSPersistentStore.StoreType` names one: what opens a
    /// ``PersistentStoreDescription`` of it. An engine's module adds its own type.
    public struct StoreType: Sendable, Hashable, CustomStringConvertible {
        /// Opens the store a description describes, with a model.
        public typealias Opener = @Sendable (PersistentStoreDescription, ManagedObjectModel) async throws(StoreError) -> PersistentStore
        /// Opens the store without waiting on anything but the file: a SQLite store.
        public typealias SynchronousOpener = @Sendable (PersistentStoreDescription, ManagedObjectModel) throws(StoreError) -> PersistentStore

        public let rawValue: String
        let opener: Opener
        let synchronousOpener: SynchronousOpener?

        /// A type whose stores `open` opens, which may wait (for a server, say): its stores load
        /// with `await loadPersistentStores()` only.
        public init(rawValue: String, open: @escaping Opener) {
            self.rawValue = rawValue
            opener = open
            synchronousOpener = nil
        }

        /// A type whose stores open at once, on the caller's thread when it loads them
        /// synchronously.
        public init(rawValue: String, openAtOnce open: @escaping SynchronousOpener) {
            self.rawValue = rawValue
            synchronousOpener = open
            opener = { description, model throws(StoreError) in try open(description, model) }
        }

        /// A SQLite file: `PersistentStore(url:model:migration:history:pragmas:)`, or
        /// `readOnly(url:model:)` for a read-only description.
        public static let sqlite = StoreType(rawValue: "SQLite", openAtOnce: { description, model throws(StoreError) in
            guard let url = description.url else { throw .unsupportedOption(name: "url", reason: "a SQLite store needs a file URL") }
            if description.isReadOnly { return try PersistentStore.readOnly(url: url, model: model) }
            return try PersistentStore(
                url: url, model: model, migration: description.migration, history: description.history, pragmas: description.sqlitePragmas)
        })

        /// A new, empty store in memory: ``PersistentStore/inMemory(model:history:)``.
        public static let inMemory = StoreType(rawValue: "InMemory", openAtOnce: { description, model throws(StoreError) in
            try PersistentStore.inMemory(model: model, history: description.history)
        })

        public static func == (lhs: StoreType, rhs: StoreType) -> Bool {
            lhs.rawValue == rhs.rawValue
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(rawValue)
        }

        public var description: String { rawValue }
    }
}
