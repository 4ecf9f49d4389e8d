/// Which of the coordinator's stores a context asks: the one holding the entity a fetch reads,
/// the one an object's ID names.
extension ObjectContext {
    /// The store a fetch of the entity named `name` reads: the one holding its objects.
    func storeFetching(_ name: String) throws(ContextError) -> PersistentStore {
        if let only = coordinator.onlyStore { return only }
        if let holder = coordinator.persistentStore(forEntityNamed: name) { return holder }
        throw store.entity(named: name) == nil ? .unknownEntity(name) : .noStore(entity: name)
    }

    /// The store holding the objects of `entity`, whose table a query of them reads.
    func store(holding entity: EntityDescription) -> PersistentStore {
        coordinator.onlyStore ?? coordinator.persistentStore(for: entity) ?? store
    }

    /// The store holding `object`'s row.
    func store(of object: ManagedObject) -> PersistentStore {
        coordinator.onlyStore ?? coordinator.persistentStore(of: object.objectID) ?? store
    }
}
