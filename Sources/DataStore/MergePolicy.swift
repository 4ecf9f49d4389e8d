/// How a save settles optimistic-locking conflicts — objects this context changed or deleted whose
/// rows another context or process changed or deleted since this context read them — by Core
/// Data's names (`NSMergePolicy`). Set on a context: `context.mergePolicy = .mergeByPropertyObjectTrump`.
///
/// A policy other than `error` settles each conflict with the store's current row, then saves
/// again; a conflict that arises again (another writer changed the row meanwhile) is settled the
/// same way, a few times at most, before the save fails with it. A child context's save into its
/// parent settles conflicts with the parent's objects the same way, the parent's values standing
/// for the row; the child's objects then show the parent's values.
///
/// A policy other than `error` also settles uniqueness-constraint clashes — the upsert: an
/// inserted object whose constrained values a stored object or another inserted object has is
/// merged into that object and forgotten (see `ObjectContext.mergePolicy`); a batch insert that
/// a context executes merges its clashing rows into the stored ones the same way.
///
/// Whatever the policy, a row another writer deleted stays deleted: the context's changes to it
/// are dropped and the object forgotten. A deletion in this context stands against any change
/// another writer made to the row, since a policy merges values and a deletion is none (Core Data's
/// `rollback` would undo it; undoing it here would leave what its delete rules changed in other
/// objects without it).
public enum MergePolicy: Sendable, Hashable {
    /// `NSErrorMergePolicy`: the save fails with `SaveError.conflicts` and writes nothing.
    case error
    /// `NSMergeByPropertyStoreTrumpMergePolicy`: merged property by property; where both this
    /// context and the store changed an attribute or a to-one relationship, the store's value
    /// wins, and this context's changes to the rest are saved.
    case mergeByPropertyStoreTrump
    /// `NSMergeByPropertyObjectTrumpMergePolicy`: merged property by property; where both changed
    /// a property, this context's value wins, and the store's changes to the rest are kept.
    case mergeByPropertyObjectTrump
    /// `NSOverwriteMergePolicy`: the object's attributes and to-one relationships as this context
    /// holds them are written whole, over whatever the store holds.
    case overwrite
    /// `NSRollbackMergePolicy`: the store's row wins whole; this context's changes to the object
    /// are dropped.
    case rollback
    /// A policy of the app's own, a subclass of ``CustomMergePolicy``: Core Data's `NSMergePolicy`
    /// subclass.
    case custom(CustomMergePolicy)

    /// The built-in policy that settles conflicts: a custom one's base.
    var builtIn: MergePolicy {
        if case .custom(let policy) = self { policy.base } else { self }
    }
}
