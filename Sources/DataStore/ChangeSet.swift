/// What one save changed: the IDs of inserted, updated (with the names of changed properties) and
/// deleted objects. `Sendable`: stores publish it to every context, which can merge it.
public struct ChangeSet: Sendable, Equatable {
    public var inserted: Set<ObjectID> {
        get { insertedIDs.set }
        set { insertedIDs = IDSet(newValue) }
    }
    /// Updated objects and the properties whose values changed.
    public var updated: [ObjectID: Set<String>]
    public var deleted: Set<ObjectID> {
        get { deletedIDs.set }
        set { deletedIDs = IDSet(newValue) }
    }
    /// Another connection or process committed to the store file (`PersistentStore
    /// .checkForExternalChanges()` saw it): which objects changed is unknown, and the sets are empty.
    public var isExternalWrite: Bool

    private var insertedIDs: IDSet
    private var deletedIDs: IDSet
    /// The context whose save or batch request this is (`ObjectContext.identifier`), so that a
    /// context following the store passes over its own; not part of equality.
    var origin: UInt64?

    public init(inserted: Set<ObjectID> = [], updated: [ObjectID: Set<String>] = [:], deleted: Set<ObjectID> = [], isExternalWrite: Bool = false) {
        insertedIDs = IDSet(inserted)
        self.updated = updated
        deletedIDs = IDSet(deleted)
        self.isExternalWrite = isExternalWrite
    }

    /// A save's change set, with the IDs of its inserted and deleted objects (each once).
    init(insertedIDs: [ObjectID], deletedIDs: [ObjectID] = []) {
        self.insertedIDs = IDSet(insertedIDs)
        updated = [:]
        self.deletedIDs = IDSet(deletedIDs)
        isExternalWrite = false
    }

    /// Whether the save inserted anything; unlike `inserted.isEmpty`, never makes the set.
    var hasInserted: Bool { !insertedIDs.isEmpty }

    /// Makes `ids` (each once) the deleted objects' IDs, without making the set.
    mutating func setDeleted(_ ids: [ObjectID]) {
        deletedIDs = IDSet(ids)
    }

    /// Calls `body` with each inserted object's ID, without making the set.
    func forEachInserted(_ body: (ObjectID) -> Void) {
        insertedIDs.forEach(body)
    }

    /// Calls `body` with each deleted object's ID, without making the set.
    func forEachDeleted(_ body: (ObjectID) -> Void) {
        deletedIDs.forEach(body)
    }

    public var isEmpty: Bool { !hasInserted && updated.isEmpty && deletedIDs.isEmpty && !isExternalWrite }

    public static func == (lhs: ChangeSet, rhs: ChangeSet) -> Bool {
        lhs.inserted == rhs.inserted && lhs.updated == rhs.updated && lhs.deleted == rhs.deleted
            && lhs.isExternalWrite == rhs.isExternalWrite
    }
}

/// The IDs of a save's inserted (or deleted) objects, kept as the save lists them and made a
/// `Set` the first time one is asked for: hashing 100,000 IDs into a set costs a tenth of saving
/// them, and a save nobody merges never needs it. Copies of a change set share it; the one change
/// it undergoes, list to set, keeps its value.
private final class IDSet: Sendable {
    private enum Form {
        case list([ObjectID])
        case set(Set<ObjectID>)
    }

    let isEmpty: Bool
    private let form: Locked<Form>

    init(_ ids: [ObjectID]) {
        isEmpty = ids.isEmpty
        form = Locked(.list(ids))
    }

    init(_ ids: Set<ObjectID>) {
        isEmpty = ids.isEmpty
        form = Locked(.set(ids))
    }

    func forEach(_ body: (ObjectID) -> Void) {
        form.withLock { form in
            switch form {
            case .set(let set): set.forEach(body)
            case .list(let ids): ids.forEach(body)
            }
        }
    }

    var set: Set<ObjectID> {
        form.withLock { form in
            switch form {
            case .set(let set): return set
            case .list(let ids):
                let set = Set(ids)
                form = .set(set)
                return set
            }
        }
    }
}
