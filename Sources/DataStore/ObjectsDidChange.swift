/// What changed in a context since its observers were last told: the IDs of objects inserted,
/// changed and deleted — Core Data's `objectsDidChange` notification. Lists such as
/// `FetchedResultsController` keep themselves current from it.
public struct ObjectsDidChange: Sendable, Equatable {
    /// Objects inserted (by temporary ID until saved) or, after a merge, saved elsewhere.
    public var inserted: Set<ObjectID> = []
    /// Objects whose values changed here or were changed by a merged save.
    public var updated: Set<ObjectID> = []
    /// Objects deleted here or by a merged save.
    public var deleted: Set<ObjectID> = []
    /// The permanent IDs a save gave to inserted objects, by their temporary IDs.
    public var permanentIDs: [ObjectID: ObjectID] = [:]
    /// Whether any object may have changed — the context was reset, or another connection or
    /// process wrote the store — so observers must look again rather than trust the sets above.
    public var invalidatesAll = false

    public init(
        inserted: Set<ObjectID> = [], updated: Set<ObjectID> = [], deleted: Set<ObjectID> = [],
        permanentIDs: [ObjectID: ObjectID] = [:], invalidatesAll: Bool = false
    ) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.permanentIDs = permanentIDs
        self.invalidatesAll = invalidatesAll
    }

    public var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && permanentIDs.isEmpty && !invalidatesAll
    }
}
