import Foundation

/// A model and its stores, with a context for the main actor and contexts for background work:
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
/// read-only store, history, pragmas, or a server's store. Several descriptions, each naming a
/// configuration of the model, load several stores into one ``PersistentStoreCoordinator``,
/// which gives each entity's objects to the store whose configuration names it:
///
///     var cloud = PersistentStoreDescription(url: folder.appendingPathComponent("Cloud.sqlite"))
///     cloud.configuration = "Cloud"
///     var local = PersistentStoreDescription(url: folder.appendingPathComponent("Local.sqlite"))
///     local.configuration = "Local"
///     container.persistentStoreDescriptions = [cloud, local]
public final class PersistentContainer: Sendable {
    /// The container's name, which names its default store file.
    public let name: String
    public let model: ManagedObjectModel
    private let state: Locked<State>
    /// The context of the main actor, made at its first use after loading.
    @MainActor private var mainContext: ObjectContext?

    private struct State {
        var descriptions: [PersistentStoreDescription]
        var coordinator: PersistentStoreCoordinator?
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

    /// How the stores are opened, one description each. Changing them after loading changes nothing.
    public var persistentStoreDescriptions: [PersistentStoreDescription] {
        get { state.withLock { $0.descriptions } }
        set { state.withLock { $0.descriptions = newValue } }
    }

    /// The loaded stores and which holds each entity; `nil` before ``loadPersistentStores()``.
    public var persistentStoreCoordinator: PersistentStoreCoordinator? {
        state.withLock { $0.coordinator }
    }

    /// The loaded store, the first when there are several; `nil` before ``loadPersistentStores()``.
    public var persistentStore: PersistentStore? {
        persistentStoreCoordinator?.persistentStores[0]
    }

    /// Opens the stores the descriptions describe, in order — creating folders and files that do
    /// not exist, migrating stores of an earlier model version — each on a thread of its own, and
    /// returns the first. Loading twice returns the store loaded first.
    @discardableResult
    public func loadPersistentStores() async throws(StoreError) -> PersistentStore {
        if let store = persistentStore { return store }
        var stores: [(store: PersistentStore, configuration: String?)] = []
        for description in try loadableDescriptions() {
            let store: PersistentStore
            if let open = description.type.synchronousOpener {
                store = try await onItsOwnThread { [model] () throws(StoreError) in try open(description, model) }
            } else {
                store = try await description.type.opener(description, model)
            }
            stores.append((store, description.configuration))
        }
        return try keep(PersistentStoreCoordinator(stores))
    }

    /// Opens the stores as ``loadPersistentStores()`` does, on the caller's thread, for types whose
    /// stores open at once (a file, memory); a server's store is loaded with `await`.
    @discardableResult
    public func loadPersistentStoresAndWait() throws(StoreError) -> PersistentStore {
        if let store = persistentStore { return store }
        var stores: [(store: PersistentStore, configuration: String?)] = []
        for description in try loadableDescriptions() {
            guard let open = description.type.synchronousOpener else {
                throw .unsupportedOption(name: "type", reason: "a \(description.type) store opens asynchronously: await loadPersistentStores()")
            }
            stores.append((try open(description, model), description.configuration))
        }
        return try keep(PersistentStoreCoordinator(stores))
    }

    /// The context bound to the main actor, for the interface: it reads the stores and whatever its
    /// saves and, with `automaticallyMergesChangesFromParent`, the other contexts' saves wrote.
    /// Loading comes first: using it before is a programming error, and stops the program.
    @MainActor public var viewContext: ObjectContext {
        if let mainContext { return mainContext }
        let context = ObjectContext(coordinator: loadedCoordinator, isolation: MainActor.shared)
        mainContext = context
        return context
    }

    /// A new context with its own queue, for work off the main actor: Core Data's
    /// `newBackgroundContext()`.
    public func newBackgroundContext() -> BackgroundContext {
        loadedCoordinator.newBackgroundContext()
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

    private var loadedCoordinator: PersistentStoreCoordinator {
        guard let coordinator = persistentStoreCoordinator else {
            preconditionFailure("the stores of container \(name) are not loaded: call loadPersistentStores() first")
        }
        return coordinator
    }

    /// The descriptions a container loads, their folders made.
    private func loadableDescriptions() throws(StoreError) -> [PersistentStoreDescription] {
        let descriptions = persistentStoreDescriptions
        guard !descriptions.isEmpty else { throw .unsupportedOption(name: "persistentStoreDescriptions", reason: "no store is described") }
        // Stores that cannot share a coordinator are refused before any is opened.
        _ = try PersistentStoreCoordinator.positions(descriptions.map(\.configuration), of: model)
        for description in descriptions where description.type == .sqlite && !description.isReadOnly {
            guard let folder = description.url?.deletingLastPathComponent() else { continue }
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw .database(message: "creating \(folder.path): \(error)")
            }
        }
        return descriptions
    }

    /// Keeps `coordinator` as the container's, unless a concurrent load kept one first; its first store.
    private func keep(_ coordinator: PersistentStoreCoordinator) -> PersistentStore {
        state.withLock { state in
            if let loaded = state.coordinator { return loaded.persistentStores[0] }
            state.coordinator = coordinator
            return coordinator.persistentStores[0]
        }
    }
}
