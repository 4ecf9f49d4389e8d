import Foundation

/// A model and its store, with a context for the main actor and contexts for background work:
/// Core Data's `NSPersistentContainer`, in the shape apps set it up.
///
///     let container = PersistentContainer(name: "Feed", model: Feed.model)
///     try await container.loadPersistentStores()
///     container.viewContext.automaticallyMergesChangesFromParent = true
///     container.viewContext.mergePolicy = .mergeByPropertyObjectTrump
///
///     try await container.performBackgroundTask { context in
///         context.mergePolicy = .mergeByPropertyObjectTrump
///         // …insert or update objects…
///         try context.save()
///     }
///
/// By default the store is `<name>.sqlite` in ``defaultDirectoryURL()``; set
/// ``persistentStoreDescriptions`` before loading for another file, a store in memory, a
/// read-only store, history, pragmas, or a server's store. A container holds one store: Core
/// Data's configurations, which spread a model's entities over several stores of one coordinator,
/// have no counterpart yet.
public final class PersistentContainer: Sendable {
    /// The container's name, which names its default store file.
    public let name: String
    public let model: ManagedObjectModel
    private let state: Locked<State>
    /// The context of the main actor, made at its first use after loading.
    @MainActor private var mainContext: ObjectContext?

    private struct State {
        var descriptions: [PersistentStoreDescription]
        var store: PersistentStore?
    }

    /// A container for `model`, whose store will be `<name>.sqlite` in ``defaultDirectoryURL()``
    /// unless ``persistentStoreDescriptions`` are changed before ``loadPersistentStores()``.
    public init(name: String, model: ManagedObjectModel) {
        self.name = name
        self.model = model
        let url = Self.defaultDirectoryURL().appendingPathComponent("\(name).sqlite")
        state = Locked(State(descriptions: [PersistentStoreDescription(url: url)]))
    }

    /// Where stores are kept by default: the application-support directory on Apple's systems,
    /// `$XDG_DATA_HOME` (or `~/.local/share`) elsewhere. Core Data's `defaultDirectoryURL()`.
    public class func defaultDirectoryURL() -> URL {
        #if canImport(Darwin)
        return FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
        #else
        if let data = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], !data.isEmpty { return URL(fileURLWithPath: data) }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        #endif
    }

    /// How the store is opened: one description. Changing them after loading changes nothing.
    public var persistentStoreDescriptions: [PersistentStoreDescription] {
        get { state.withLock { $0.descriptions } }
        set { state.withLock { $0.descriptions = newValue } }
    }

    /// The loaded store; `nil` before ``loadPersistentStores()``.
    public var persistentStore: PersistentStore? {
        state.withLock { $0.store }
    }

    /// Opens the store its description describes — creating its folder and file when they do not
    /// exist, migrating a store of an earlier model version — on a thread of its own, and returns
    /// it. Loading twice returns the store loaded first.
    @discardableResult
    public func loadPersistentStores() async throws(StoreError) -> PersistentStore {
        if let store = persistentStore { return store }
        let description = try loadableDescription()
        let store: PersistentStore
        if let open = description.type.synchronousOpener {
            store = try await PersistentStore.openingOnItsOwnThread { [model] () throws(StoreError) in try open(description, model) }
        } else {
            store = try await description.type.opener(description, model)
        }
        return keep(store)
    }

    /// Opens the store as ``loadPersistentStores()`` does, on the caller's thread, for types whose
    /// stores open at once (a file, memory); a server's store is loaded with `await`.
    @discardableResult
    public func loadPersistentStoresAndWait() throws(StoreError) -> PersistentStore {
        if let store = persistentStore { return store }
        let description = try loadableDescription()
        guard let open = description.type.synchronousOpener else {
            throw .unsupportedOption(name: "type", reason: "a \(description.type) store opens asynchronously: await loadPersistentStores()")
        }
        return keep(try open(description, model))
    }

    /// The context bound to the main actor, for the interface: it reads the store and whatever its
    /// saves and, with `automaticallyMergesChangesFromParent`, the other contexts' saves wrote.
    /// Loading comes first: using it before is a programming error, and stops the program.
    @MainActor public var viewContext: ObjectContext {
        if let mainContext { return mainContext }
        let context = ObjectContext(store: loadedStore, isolation: MainActor.shared)
        mainContext = context
        return context
    }

    /// A new context with its own queue, for work off the main actor: Core Data's
    /// `newBackgroundContext()`.
    public func newBackgroundContext() -> BackgroundContext {
        loadedStore.newBackgroundContext()
    }

    /// Runs `body` on a new background context and returns its result: Core Data's
    /// `performBackgroundTask(_:)`, awaited.
    public func performBackgroundTask<Result: Sendable, Failure: Error>(
        _ body: @Sendable (ObjectContext) throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        try await newBackgroundContext().perform(body)
    }

    /// Schedules `body` on a new background context and returns at once.
    public func performBackgroundTask(_ body: @escaping @Sendable (ObjectContext) -> Void) {
        newBackgroundContext().perform(body)
    }

    private var loadedStore: PersistentStore {
        guard let store = persistentStore else {
            preconditionFailure("the stores of container \(name) are not loaded: call loadPersistentStores() first")
        }
        return store
    }

    /// The one description a container loads, its folder made.
    private func loadableDescription() throws(StoreError) -> PersistentStoreDescription {
        let descriptions = persistentStoreDescriptions
        guard descriptions.count == 1, let description = descriptions.first else {
            throw .unsupportedOption(name: "persistentStoreDescriptions", reason: "a container loads one store; \(descriptions.count) are described")
        }
        if description.type == .sqlite, !description.isReadOnly, let folder = description.url?.deletingLastPathComponent() {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw .database(message: "creating \(folder.path): \(error)")
            }
        }
        return description
    }

    /// Keeps `store` as the container's, unless a concurrent load kept one first.
    private func keep(_ store: PersistentStore) -> PersistentStore {
        state.withLock { state in
            if let loaded = state.store { return loaded }
            state.store = store
            return store
        }
    }
}
