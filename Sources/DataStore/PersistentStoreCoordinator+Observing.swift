/// Saves told store by store: each store's observers hear of its own objects.
extension PersistentStoreCoordinator {
    /// Tells each store's observers of the part of `changes` that is its objects'.
    func publish(_ changes: ChangeSet) {
        if let onlyStore { return onlyStore.publish(changes) }
        for store in persistentStores {
            let identifier = store.identifier
            var part = ChangeSet(
                inserted: changes.inserted.filter { $0.storeIdentifier == identifier },
                updated: changes.updated.filter { $0.key.storeIdentifier == identifier },
                deleted: changes.deleted.filter { $0.storeIdentifier == identifier })
            part.origin = changes.origin
            if !part.isEmpty { store.publish(part) }
        }
    }

    /// Calls `observer` after every save to any of the stores, with that store's changes; returns
    /// a token per store, for ``removeObservers(_:)``.
    func addObservers(_ observer: @escaping @Sendable (ChangeSet) -> Void) -> [UInt64] {
        persistentStores.map { $0.addObserver(observer) }
    }

    func removeObservers(_ tokens: [UInt64]) {
        for (store, token) in zip(persistentStores, tokens) { store.removeObserver(token) }
    }
}
