/// The objects of a mapping migration's new store that broke a rule of the model when last saved,
/// judged again once every object is linked, as Core Data validates a migration at its end. Kept
/// by key (an object stays in memory only until the save that gives it one), so that a store
/// whose objects all wait for a required relationship costs a key each, not an object each.
struct DeferredValidation {
    /// Packed keys (`MigrationAssociations.key`) of saved objects that broke a rule.
    private(set) var failingKeys: Set<Int64> = []
    /// Objects that broke a rule in the save under way, until it gives them keys.
    private var awaitingKeys: [ManagedObject] = []

    /// Notes what the save under way found: `object` breaks a rule, or no longer does.
    mutating func note(_ object: ManagedObject, failing: Bool) {
        guard let key = MigrationAssociations.key(object.objectID) else {
            if failing { awaitingKeys.append(object) }
            return
        }
        if failing { failingKeys.insert(key) } else { failingKeys.remove(key) }
    }

    /// Forgets an object the save deletes.
    mutating func forget(_ object: ManagedObject) {
        if let key = MigrationAssociations.key(object.objectID) { failingKeys.remove(key) }
        awaitingKeys.removeAll { $0 === object }
    }

    /// Keys the objects the last save gave keys to.
    mutating func keepPending() {
        for object in awaitingKeys {
            if let key = MigrationAssociations.key(object.objectID) { failingKeys.insert(key) }
        }
        awaitingKeys.removeAll()
    }
}
