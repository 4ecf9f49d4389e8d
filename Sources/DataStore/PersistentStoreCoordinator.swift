import DataModel
import Foundation

/// The stores a model's objects live in, and which of them holds each entity: Core Data's
/// `NSPersistentStoreCoordinator`, for a model whose configurations spread its entities over
/// several stores — a synchronised store and a local one, say.
///
///     let coordinator = try PersistentStoreCoordinator([
///         (store: try PersistentStore(url: cloudURL, model: Notes.model), configuration: "Cloud"),
///         (store: try PersistentStore(url: localURL, model: Notes.model), configuration: "Local"),
///     ])
///     let context = coordinator.newContext()
///
/// As in Core Data, every store has the tables of the whole model and its configuration decides
/// which entities' objects it holds: an insert goes to the store whose configuration names its
/// entity, a fetch reads that store, and a save writes each store's objects in a transaction of
/// that store. Contexts made by a store alone (`store.newContext()`) have a coordinator of that
/// one store.
///
/// Unlike Core Data, an entity is held by one store of a coordinator: configurations that share
/// an entity are refused, so a fetch never merges the rows of two stores. An entity's
/// inheritance tree lives in one store, the one whose configuration names any of its entities.
public final class PersistentStoreCoordinator: Sendable {
    /// The model every store was opened with.
    public let managedObjectModel: ManagedObjectModel
    /// The stores, in the order they were given.
    public let persistentStores: [PersistentStore]
    /// Each store's configuration, by position in ``persistentStores``; `nil` for every entity.
    private let configurations: [String?]
    /// The position of the store holding each inheritance tree, by its root's entity number
    /// (empty with one store, which holds every entity).
    private let positionByRoot: [Int: Int]
    /// Each store's position, by identifier.
    private let positionByIdentifier: [String: Int]
    /// The store, when there is only one: every question has the same answer.
    let onlyStore: PersistentStore?

    /// A coordinator of `stores`, each holding the entities its configuration names (`nil`, or
    /// `"Default"`, for every entity).
    ///
    /// Throws `StoreError.invalidConfiguration` when there are no stores, when they were opened
    /// with different models or are the same store twice, when a configuration is not in the
    /// model, or when two stores would hold one entity.
    public init(_ stores: [(store: PersistentStore, configuration: String?)]) throws(StoreError) {
        guard let first = stores.first?.store else { throw .invalidConfiguration("a coordinator needs a store") }
        managedObjectModel = first.model
        persistentStores = stores.map(\.store)
        configurations = stores.map(\.configuration).map(Self.named)
        var positionByIdentifier: [String: Int] = [:]
        for (position, store) in persistentStores.enumerated() {
            guard store.model === first.model else {
                throw .invalidConfiguration("the store \(store.identifier) was opened with another model than the first store")
            }
            guard type(of: store.dialect) == type(of: first.dialect) else {
                throw .invalidConfiguration("the stores of one coordinator are of one engine")
            }
            guard positionByIdentifier.updateValue(position, forKey: store.identifier) == nil else {
                throw .invalidConfiguration("the store \(store.identifier) is given twice")
            }
        }
        self.positionByIdentifier = positionByIdentifier
        onlyStore = stores.count == 1 && configurations[0] == nil ? first : nil
        // A store holding every entity needs no routing: every context of one store makes one.
        positionByRoot = onlyStore != nil ? [:] : try Self.positions(configurations, of: first.model)
    }

    /// A coordinator of `store` alone, which holds every entity.
    public convenience init(store: PersistentStore) {
        // One store holding every entity cannot clash with itself.
        try! self.init([(store: store, configuration: nil)])
    }

    /// The name Core Data gives the configuration of every entity.
    public static let defaultConfiguration = "Default"

    /// The configuration `store` was given here; `nil` when it holds every entity.
    public func configurationName(of store: PersistentStore) -> String? {
        positionByIdentifier[store.identifier].flatMap { configurations[$0] }
    }

    /// The store holding the objects of the entity named `entityName`, if one does.
    public func persistentStore(forEntityNamed entityName: String) -> PersistentStore? {
        if let onlyStore { return onlyStore }
        return persistentStores[0].entity(named: entityName).flatMap { persistentStore(forRoot: $0.rootNumber) }
    }

    /// The store whose identifier (`Z_UUID`) is `identifier`.
    public func persistentStore(identifiedBy identifier: String) -> PersistentStore? {
        positionByIdentifier[identifier].map { persistentStores[$0] }
    }

    /// The ID a URI names, read by the store whose identifier the URI holds
    /// (`PersistentStore.managedObjectID(forURIRepresentation:)`): Core Data's
    /// `managedObjectID(forURIRepresentation:)` of the coordinator.
    public func managedObjectID(forURIRepresentation uri: URL) -> ObjectID? {
        uri.host.flatMap(persistentStore(identifiedBy:))?.managedObjectID(forURIRepresentation: uri)
    }

    /// A new context on the coordinator's stores, for use on the caller's isolation.
    public func newContext(isolation: (any Actor)? = #isolation) -> ObjectContext {
        ObjectContext(coordinator: self, isolation: isolation)
    }

    /// A new context with its own isolation, used through `perform`.
    public func newBackgroundContext() -> BackgroundContext {
        BackgroundContext(coordinator: self)
    }

    // MARK: Routing

    /// The store holding the inheritance tree whose root is numbered `root`.
    func persistentStore(forRoot root: Int) -> PersistentStore? {
        if let onlyStore { return onlyStore }
        return positionByRoot[root].map { persistentStores[$0] }
    }

    /// The store holding `entity`'s objects.
    func persistentStore(for entity: EntityDescription) -> PersistentStore? {
        persistentStore(forRoot: entity.rootNumber)
    }

    /// The store `id` names, or else the one holding its entity.
    func persistentStore(of id: ObjectID) -> PersistentStore? {
        if let onlyStore { return onlyStore }
        return persistentStore(identifiedBy: id.storeIdentifier) ?? persistentStore(forRoot: id.scope.entity.rootNumber)
    }

    /// The entity named `name`, as the store holding it describes it.
    func entity(named name: String) -> EntityDescription? {
        if let onlyStore { return onlyStore.entity(named: name) }
        return persistentStore(forEntityNamed: name)?.entity(named: name)
    }

    /// The entity whose objects `objectClass` materialises, as the store holding it describes it.
    func entity(for objectClass: ManagedObject.Type) -> EntityDescription? {
        if let onlyStore { return onlyStore.entity(for: objectClass) }
        return persistentStore(forEntityNamed: objectClass.entityName)?.entity(for: objectClass)
    }

    /// The key under which a context registers the object `id` names: its entity and key, and with
    /// several stores, the store's position, as each store numbers the same entities alike.
    func registryRow(of id: ObjectID) -> ObjectID.Row {
        if onlyStore != nil { return id.row }
        let position = positionByIdentifier[id.storeIdentifier] ?? positionByRoot[id.scope.entity.rootNumber] ?? 0
        return ObjectID.Row(entityNumber: id.entityNumber | position << Self.positionShift, key: id.key)
    }

    /// What ``registryRow(of:)`` adds to the entity numbers of `store`'s IDs.
    func registryOffset(of store: PersistentStore) -> Int {
        onlyStore != nil ? 0 : (positionByIdentifier[store.identifier] ?? 0) << Self.positionShift
    }

    /// Entity numbers are under 2³²; the store's position goes above.
    private static let positionShift = 32

    /// The configuration `name` stands for: `nil`, every entity, for Core Data's default one.
    private static func named(_ name: String?) -> String? {
        name == defaultConfiguration ? nil : name
    }

    /// Which of stores of `configurations` holds each inheritance tree of `model`, by its root's
    /// number: the first whose configuration names one of its entities. Throws for a
    /// configuration the model lacks, or a tree two stores would hold.
    static func positions(_ configurations: [String?], of model: ManagedObjectModel) throws(StoreError) -> [Int: Int] {
        let configurations = configurations.map(named)
        var members: [Set<String>?] = []
        for name in configurations {
            guard let name else {
                members.append(nil)
                continue
            }
            guard let configuration = model.model.configurations.first(where: { $0.name == name }) else {
                let known = model.model.configurations.map(\.name)
                throw .invalidConfiguration("the model has no configuration '\(name)'\(known.isEmpty ? "" : " (it has \(known.joined(separator: ", ")))")")
            }
            members.append(Set(configuration.memberEntities.map(\.name)))
        }
        let entities = model.schema.entities
        let numbers = Dictionary(entities.map { ($0.name, $0.number) }, uniquingKeysWith: { first, _ in first })
        var positionByRoot: [Int: Int] = [:]
        for entity in entities {
            let root = entity.rootName
            let rootNumber = numbers[root] ?? entity.number
            for (position, names) in members.enumerated() where names?.contains(entity.name) ?? true {
                if let holder = positionByRoot.updateValue(position, forKey: rootNumber), holder != position {
                    throw .invalidConfiguration(
                        "entity \(entity.name) (of \(root)'s inheritance tree) would be held by two stores, configurations "
                            + "\(configurations[holder] ?? defaultConfiguration) and \(configurations[position] ?? defaultConfiguration); "
                            + "here each entity is held by one store")
                }
            }
        }
        return positionByRoot
    }
}
