/// What one save changed: the IDs of inserted, updated (with the names of changed properties) and
/// deleted objects. `Sendable`: stores publish it to every context, which can merge it.
public struct ChangeSet: Sendable, Equatable {
    public var inserted: Set<ObjectID>
    /// Updated objects and the properties whose values changed.
    public var updated: [ObjectID: Set<String>]
    public var deleted: Set<ObjectID>
    /// Another connection or process committed to the store file (`PersistentStore
    /// .checkForExternalChanges()` saw it): which objects changed is unknown, and the sets are empty.
    public var isExternalWrite: Bool

    public init(inserted: Set<ObjectID> = [], updated: [ObjectID: Set<String>] = [:], deleted: Set<ObjectID> = [], isExternalWrite: Bool = false) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.isExternalWrite = isExternalWrite
    }

    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && !isExternalWrite }
}
