/// Which of the coordinator's stores a context asks: the one holding the entity a fetch reads,
/// the one an object's ID names. With one store holding every entity, that store, asked nothing:
/// these run for every object inserted or fetched, so they are inlined.
extension ObjectContext {
    /// The store a fetch of the entity named `name` reads: the one holding its objects.
    func storeFetching(_ name: String) throws(ContextError) -> PersistentStore {
        if hasOneStore { return store }
        if let holder = coordinator.persistentStore(forEntityNamed: name) { return holder }
        throw store.entity(named: name) == nil ? .unknownEntity(name) : .noStore(entity: name)
    }

    /// The store holding the objects of `entity`, whose table a query of them reads.
    @inline(__always)
    func store(holding entity: EntityDescription) -> PersistentStore {
        hasOneStore ? store : coordinator.persistentStore(for: entity) ?? store
    }

    /// The store `id` names, or else the one holding its entity.
    @inline(__always)
    func store(of id: ObjectID) -> PersistentStore {
        hasOneStore ? store : coordinator.persistentStore(of: id) ?? store
    }

    /// The store holding `object`'s row.
    @inline(__always)
    func store(of object: ManagedObject) -> PersistentStore {
        hasOneStore ? store : store(of: object.objectID)
    }

    /// The entity whose objects `objectClass` materialises, as the store holding it describes it.
    @inline(__always)
    func entity(for objectClass: ManagedObject.Type) -> EntityDescription? {
        hasOneStore ? store.entity(for: objectClass) : coordinator.entity(for: objectClass)
    }

    /// The key under which the context registers the object `id` names.
    @inline(__always)
    func registryRow(of id: ObjectID) -> ObjectID.Row {
        hasOneStore ? id.row : coordinator.registryRow(of: id)
    }
}
