import DataModel
import Foundation
import GRDB
import StoreSchema

/// A SQLite store in Core Data's layout: a file (WAL mode, concurrent readers) or memory.
///
/// Opening a new file creates the schema, `Z_PRIMARYKEY` and the metadata Core Data writes; opening
/// an existing store — ours or one Core Data wrote — checks its model version hashes and fails with
/// `StoreError.modelMismatch` naming the entities that differ, changing nothing.
///
///     let store = try PersistentStore(url: url, model: Books.model)
///     let context = store.newContext()
public final class PersistentStore: Sendable {
    public let model: ManagedObjectModel
    /// The file; for a server's store, the server and database (`scheme://user@host:port/name`,
    /// without a password); `nil` for an in-memory store.
    public let url: URL?
    /// `Z_METADATA.Z_UUID`, which object URIs carry.
    public let identifier: String
    /// The metadata read at open (or written at creation), with what ``setMetadata(_:)`` wrote since.
    public var metadata: StoreMetadata { currentMetadata.withLock { $0 } }
    let currentMetadata: Locked<StoreMetadata>
    /// The entities whose version hashes differ from those the store was written with: empty,
    /// except for a store opened with ``readOnly(url:model:)`` that another version of the model
    /// wrote (every table and column the model needs is there, so its objects read).
    public let differingEntities: [String]
    /// Whether saves are recorded as persistent history (``HistoryTracking``).
    public let tracksHistory: Bool
    /// Each entity's bits in the history's `ZCOLUMNS` and its tombstone, by number (empty without
    /// history).
    private let historyLayouts: [(columns: HistoryColumns, tombstones: HistoryTombstones)]
    /// The number of `ZTOMBSTONE0…` columns of the history's changes.
    let tombstoneColumns: Int
    /// Every entity, by number (`entities[0]` is entity 1).
    public let entities: [EntityDescription]
    /// What holds the rows, and runs the store's statements.
    let engine: any StoreEngine
    /// The SQL the store's engine speaks.
    let dialect: any SQLDialect
    private let entitiesByName: [String: EntityDescription]
    /// Whether the class of some entity is told of its objects' lifecycle: saves of a model
    /// without one skip the calls.
    let hasLifecycleEntities: Bool
    /// The entity of each generated class, by class: found without hashing the entity's name.
    private let entitiesByClass: [ObjectIdentifier: EntityDescription]
    /// The object-ID scope of each entity, by number (`idScopes[0]` is entity 1).
    private let idScopes: [ObjectID.Scope]
    let sqlLog = SQLLog()
    /// What the derived-attribute triggers computed during the current save.
    let derivedValues: DerivedValueLog
    /// How a server store computes derived attributes as it saves (a SQLite store's triggers do).
    let derivedAttributeRules: [DerivedAttributeRule]
    /// Whether the engine tells the store of other processes' history transactions as they commit.
    let observesCommits: Bool
    private let observers = Locked<[UInt64: @Sendable (ChangeSet) -> Void]>([:])
    private let nextObserver = Locked<UInt64>(0)
    /// The last history transaction delivered, and this store's own since.
    let historyCursor: Locked<HistoryCursor>
    /// Held while a reading of the history after a commit notice publishes what it found.
    let deliveries = NSRecursiveLock()

    /// Opens the store at `url`, creating it when the file does not exist or is empty.
    ///
    /// A store written by an earlier version of the model (one of `model.versions`) is migrated
    /// first, as `migration` says: by default lightweight, straight to the current version, each
    /// step in one transaction. A store of a later version is never downgraded
    /// (`StoreError.migration(.storeIsNewer)`).
    ///
    /// `history` says whether saves are recorded as persistent history: by default, when the store
    /// already records it. Each connection runs `pragmas` as it opens (`["synchronous": "FULL"]`);
    /// a name or value that is not a plain word or number, or a `journal_mode` other than WAL,
    /// throws `StoreError.unsupportedOption`.
    public convenience init(
        url: URL, model: ManagedObjectModel, migration: MigrationOptions = .automatic, history: HistoryTracking = .automatic,
        pragmas: [String: String] = [:]
    ) throws(StoreError) {
        let database: DatabasePool
        let derivedValues = DerivedValueLog()
        let pragmas = try Self.checked(pragmas)
        do {
            database = try DatabasePool(path: url.path, configuration: Self.configuration(readonly: false, derivedValues, pragmas: pragmas))
        } catch {
            throw Self.openingError(error, url: url)
        }
        if migration.migratesAutomatically {
            do {
                try Self.migrate(database, url: url, model: model, options: migration)
            } catch .migration(.unknownStoreVersion) {
                // Written by no version of the model: opening names the entities that differ.
            }
        }
        try self.init(database: database, derivedValues: derivedValues, url: url, model: model, history: history)
    }

    /// Opens the existing store at `url` for reading only: the store file is never written (SQLite
    /// may create the `-wal` and `-shm` files of a WAL store beside it), so it is safe on a copy of
    /// an app's store or a file another program owns. Saving a context of this store fails with a
    /// database error.
    ///
    /// A store written by another version of the model opens too, when it numbers the entities as
    /// the model does and has every table and column the model needs; ``differingEntities`` names
    /// the entities whose version hashes differ. Otherwise opening throws
    /// `StoreError.modelMismatch` (other entity numbers), `.missingTable` or `.missingColumn`.
    public static func readOnly(url: URL, model: ManagedObjectModel) throws(StoreError) -> PersistentStore {
        guard FileManager.default.fileExists(atPath: url.path) else { throw .fileNotFound(path: url.path) }
        let database: DatabaseQueue
        let derivedValues = DerivedValueLog()
        do {
            database = try DatabaseQueue(path: url.path, configuration: Self.configuration(readonly: true, derivedValues))
        } catch {
            throw .database(message: "\(error)")
        }
        return try PersistentStore(database: database, derivedValues: derivedValues, url: url, model: model, history: .automatic)
    }

    /// Opens the existing store at `url` for reading only, with the model it carries
    /// (``modelForStore(at:)``): a store whose app is not at hand, or whose model SwiftData's
    /// `@Model` classes describe, read through the dynamic ``ManagedObject`` API.
    ///
    ///     let store = try PersistentStore.readOnly(url: customerFile)
    ///     let carts = try store.newContext().fetch(FetchRequest<ManagedObject>(entityName: "CartModel"))
    public static func readOnly(url: URL) throws(StoreError) -> PersistentStore {
        try readOnly(url: url, model: ManagedObjectModel(model: modelForStore(at: url)))
    }

    /// A new, empty store in memory, gone when the last reference goes.
    public static func inMemory(model: ManagedObjectModel, history: HistoryTracking = .automatic) throws(StoreError) -> PersistentStore {
        let derivedValues = DerivedValueLog()
        do {
            return try PersistentStore(
                database: DatabaseQueue(configuration: configuration(readonly: false, derivedValues)), derivedValues: derivedValues,
                url: nil, model: model, history: history)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database(message: "\(error)")
        }
    }

    /// Why opening the file at `url` for writing failed: a file or folder that cannot be written is
    /// told apart from other SQLite errors.
    static func openingError(_ error: any Error, url: URL) -> StoreError {
        if let error = error as? DatabaseError, error.resultCode == .SQLITE_READONLY { return .readOnlyFile(path: url.path) }
        return .database(message: "\(error)")
    }

    /// Every connection gets the functions predicates and derived-attribute triggers call; a new
    /// file gets incremental auto-vacuum, as Core Data's stores have.
    private static func configuration(readonly: Bool, _ derivedValues: DerivedValueLog, pragmas: [(String, String)] = []) -> GRDB.Configuration {
        var configuration = GRDB.Configuration()
        configuration.readonly = readonly
        configuration.prepareDatabase { db in
            StoreFunctions.register(in: db)
            derivedValues.register(in: db)
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA auto_vacuum = 2") }
            for (name, value) in pragmas { try db.execute(sql: "PRAGMA \(name) = \(value)") }
        }
        return configuration
    }

    /// The pragmas, in name order, once each name and value is known to be a word or a number:
    /// they are spelled into statements.
    private static func checked(_ pragmas: [String: String]) throws(StoreError) -> [(String, String)] {
        func isWord(_ text: String, allowingSign: Bool) -> Bool {
            let body = allowingSign && text.hasPrefix("-") ? text.dropFirst() : Substring(text)
            return !body.isEmpty && body.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        }
        for (name, value) in pragmas {
            guard isWord(name, allowingSign: false) else { throw .unsupportedOption(name: name, reason: "a pragma's name is a word") }
            guard isWord(value, allowingSign: true) else {
                throw .unsupportedOption(name: name, reason: "'\(value)' is not a word or a number")
            }
            if name.lowercased() == "journal_mode", value.lowercased() != "wal" {
                throw .unsupportedOption(name: name, reason: "a store is written ahead (WAL), so that readers never wait for a writer")
            }
        }
        return pragmas.sorted { $0.key < $1.key }
    }

    private convenience init(
        database: any DatabaseWriter, derivedValues: DerivedValueLog, url: URL?, model: ManagedObjectModel, history: HistoryTracking
    ) throws(StoreError) {
        let opened: Opened
        do {
            opened = try database.write { db in try Self.openOrCreate(db, model: model, history: history) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database(message: "\(error)")
        }
        self.init(engine: SQLiteEngine(database), opened: opened, derivedValues: derivedValues, url: url, model: model)
        _ = try? checkForExternalChanges()
    }

    /// A store whose rows another engine holds, opened by the module that brings the engine,
    /// which read the store's identity and checked its version hashes. With
    /// `lastHistoryTransaction`, the store records its saves as persistent history, deletes'
    /// preserved values in `tombstoneColumns` columns, and delivers other processes' saves from
    /// there on.
    package convenience init(
        engine: any StoreEngine, url: URL, model: ManagedObjectModel, identifier: String, metadata: StoreMetadata, schema: StoreSchema,
        lastHistoryTransaction: Int64?, tombstoneColumns: Int
    ) {
        var opened = Opened(identifier: identifier, metadata: metadata, schema: schema)
        if let lastHistoryTransaction {
            opened.tracksHistory = true
            opened.lastHistoryTransaction = lastHistoryTransaction
            opened.tombstoneColumns = tombstoneColumns
        }
        self.init(engine: engine, opened: opened, derivedValues: DerivedValueLog(), url: url, model: model)
        if observesCommits { observeCommits() }
    }

    private init(engine: any StoreEngine, opened: Opened, derivedValues: DerivedValueLog, url: URL?, model: ManagedObjectModel) {
        self.engine = engine
        dialect = engine.dialect
        self.derivedValues = derivedValues
        self.url = url
        self.model = model
        identifier = opened.identifier
        currentMetadata = Locked(opened.metadata)
        differingEntities = opened.differingEntities
        tracksHistory = opened.tracksHistory
        historyCursor = Locked(HistoryCursor(lastTransaction: opened.lastHistoryTransaction))
        entities = EntityDescriptionBuilder(model: model.model, schema: opened.schema, classes: model.classes).build()
        entitiesByName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        hasLifecycleEntities = entities.contains(where: \.hasLifecycle)
        entitiesByClass = Dictionary(
            entities.filter { $0.objectClass.entityName == $0.name }.map { (ObjectIdentifier($0.objectClass), $0) },
            uniquingKeysWith: { first, _ in first })
        idScopes = entities.map { [identifier] entity in
            ObjectID.Scope(storeIdentifier: identifier, entityName: entity.name, entityNumber: entity.number, entity: entity)
        }
        historyLayouts = tracksHistory ? entities.map { (HistoryColumns($0), HistoryTombstones($0)) } : []
        tombstoneColumns = opened.tombstoneColumns
        observesCommits = tracksHistory && engine.notifiesCommits
        derivedAttributeRules = dialect.maintainsDerivedValuesWithTriggers ? [] : DerivedAttributeRule.rules(of: entities, in: model.model)
    }

    /// The ID of the row `key` of the entity numbered `entityNumber` (an unknown number, from a
    /// damaged store, gives an ID no entity matches).
    func objectID(key: ObjectID.Key, entityNumber: Int) -> ObjectID {
        ObjectID(scope: idScope(entityNumber: entityNumber), key: key)
    }

    /// The store and entity part of the IDs of the entity numbered `entityNumber`.
    func idScope(entityNumber: Int) -> ObjectID.Scope {
        idScopes.indices.contains(entityNumber - 1) ? idScopes[entityNumber - 1]
            : ObjectID.Scope(storeIdentifier: identifier, entityName: "", entityNumber: entityNumber, entity: entities[0])
    }

    /// The bits of `entity`'s properties in the history's `ZCOLUMNS`.
    func historyColumns(of entity: EntityDescription) -> HistoryColumns {
        historyLayouts.indices.contains(entity.number - 1) ? historyLayouts[entity.number - 1].columns : HistoryColumns(entity)
    }

    /// The attributes whose values `entity`'s deletes keep in the history.
    func historyTombstones(of entity: EntityDescription) -> HistoryTombstones {
        historyLayouts.indices.contains(entity.number - 1) ? historyLayouts[entity.number - 1].tombstones : HistoryTombstones(entity)
    }

    /// The entity named `name`.
    public func entity(named name: String) -> EntityDescription? {
        entitiesByName[name]
    }

    /// The entity whose objects `objectClass` materialises and whose name it declares.
    func entity(for objectClass: ManagedObject.Type) -> EntityDescription? {
        entitiesByClass[ObjectIdentifier(objectClass)] ?? entity(named: objectClass.entityName)
    }

    /// The entity numbered `number` (`Z_ENT`).
    public func entity(number: Int) -> EntityDescription? {
        entities.indices.contains(number - 1) ? entities[number - 1] : nil
    }

    /// A new context on this store, for use on the caller's isolation (the main actor, or one task).
    public func newContext(isolation: (any Actor)? = #isolation) -> ObjectContext {
        ObjectContext(store: self, isolation: isolation)
    }

    /// A new context with its own isolation, used through `perform`.
    public func newBackgroundContext() -> BackgroundContext {
        BackgroundContext(store: self)
    }

    /// Calls `observer` after every successful save of any context on this store, with what changed.
    /// Returns a token; pass it to `removeObserver(_:)` to stop.
    @discardableResult
    public func addObserver(_ observer: @escaping @Sendable (ChangeSet) -> Void) -> UInt64 {
        let token = nextObserver.withLock { value in
            value += 1
            return value
        }
        observers.withLock { $0[token] = observer }
        return token
    }

    public func removeObserver(_ token: UInt64) {
        observers.withLock { $0[token] = nil }
    }

    /// Every saved change set, as an asynchronous sequence.
    public var savedChanges: AsyncStream<ChangeSet> {
        AsyncStream { continuation in
            let token = addObserver { continuation.yield($0) }
            continuation.onTermination = { [weak self] _ in self?.removeObserver(token) }
        }
    }

    /// Whether another connection or process committed to the store file since the last check
    /// (or since the store was opened). If so, observers get the changes: with persistent history,
    /// one `ChangeSet` per transaction naming exactly the objects it inserted, updated and deleted;
    /// without, one whose `isExternalWrite` is set, after which contexts merging it read their
    /// objects again and results controllers look again.
    ///
    /// A store on a server is told of other processes' saves as they commit, and delivers them by
    /// itself; this reads any not yet delivered, the calling thread waiting for the server.
    @discardableResult
    public func checkForExternalChanges() throws(StoreError) -> Bool {
        let found: (changed: Bool, transactions: [HistoryTransaction])
        do {
            // An engine that notices commits reads the history; without one, it cannot tell.
            if engine.notifiesCommits { return observesCommits ? try deliverNoticedChangesWaiting() : false }
            found = try engine.checkingExternalCommits { changed, transaction in
                (changed, changed && tracksHistory ? try externalTransactions(transaction) : [])
            }
        } catch {
            throw .database(message: "\(error)")
        }
        guard found.changed else { return false }
        if tracksHistory {
            for transaction in found.transactions { publish(transaction.changeSet) }
        } else {
            publish(ChangeSet(isExternalWrite: true))
        }
        return true
    }

    /// Calls `checkForExternalChanges()` every `interval` until the returned task is cancelled:
    /// SQLite tells no one when another process writes a file, so someone has to ask.
    public func monitorExternalChanges(every interval: Duration = .milliseconds(500)) -> Task<Void, Never> {
        Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                _ = try? self.checkForExternalChanges()
            }
        }
    }

    func publish(_ changes: ChangeSet) {
        for observer in observers.withLock({ Array($0.values) }) { observer(changes) }
    }
}
