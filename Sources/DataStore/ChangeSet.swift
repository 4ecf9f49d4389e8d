/// What one save changed: the IDs of inserted, updated (with the names of changed properties) and
/// deleted objects. `Sendable`: stores publish it to every context, which can merge it.
public struct ChangeSet: Sendable, Equatable {
    public var inserted: Set<ObjectID> {
        get { insertedIDs.set }
        set { insertedIDs = InsertedIDs(newValue) }
    }
    /// Updated objects and the properties whose values changed.
    public var updated: [ObjectID: Set<String>]
    public var deleted: Set<ObjectID>
    /// Another connection or process committed to the store file (`PersistentStore
    /// .checkForExternalChanges()` saw it): which objects changed is unknown, and the sets are empty.
    public var isExternalWrite: Bool

    private var insertedIDs: InsertedIDs

    public init(inserted: Set<ObjectID> = [], updated: [ObjectID: Set<String>] = [:], deleted: Set<ObjectID> = [], isExternalWrite: Bool = false) {
        insertedIDs = InsertedIDs(inserted)
        self.updated = updated
        self.deleted = deleted
        self.isExternalWrite = isExternalWrite
    }

    /// A save's change set, with the IDs it gave its inserted objects (each once).
    init(insertedIDs: [ObjectID]) {
        self.insertedIDs = InsertedIDs(insertedIDs)
        updated = [:]
        deleted = []
        isExternalWrite = false
    }

    /// Whether the save inserted anything; unlike `inserted.isEmpty`, never makes the set.
    var hasInserted: Bool { !insertedIDs.isEmpty }

    public var isEmpty: Bool { !hasInserted && updated.isEmpty && deleted.isEmpty && !isExternalWrite }

    public static func == (lhs: ChangeSet, rhs: ChangeSet) -> Bool {
        lhs.inserted == rhs.inserted && lhs.updated == rhs.updated && lhs.deleted == rhs.deleted
            && lhs.isExternalWrite == rhs.isExternalWrite
    }
}

/// The IDs of a save's inserted objects, kept as the save lists them and made a `Set` the first
/// time one is asked for: hashing 100,000 IDs into a set costs a tenth of saving them, and a save
/// nobody merges never needs it. Copies of a change set share it; the one change it undergoes,
/// list to set, keeps its value.
private final class InsertedIDs: Sendable {
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
