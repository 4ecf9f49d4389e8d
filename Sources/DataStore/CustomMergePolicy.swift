/// A merge policy of the app's own, as a subclass of Core Data's `NSMergePolicy` is: override
/// the conflicts it settles differently, and leave the rest to `super`, which settles them by
/// `base`. Set it as `context.mergePolicy = .custom(MyPolicy(base: .mergeByPropertyObjectTrump))`.
///
///     final class KeepHighestScore: CustomMergePolicy, @unchecked Sendable {
///         override func resolve(constraintConflicts conflicts: [ConstraintConflict], in context: ObjectContext) throws {
///             for conflict in conflicts {
///                 let best = conflict.allObjects.compactMap { ($0 as? Player)?.score }.max()
///                 try super.resolve(constraintConflicts: [conflict], in: context)
///                 (conflict.survivor as? Player)?.score = best ?? 0
///             }
///         }
///     }
///
/// A conflict left unsettled fails the save, as under `.error`. A child context's conflicts with
/// its parent are settled by `base`.
open class CustomMergePolicy: @unchecked Sendable, Hashable {
    /// The built-in policy `super` settles conflicts by (never `.custom`).
    public let base: MergePolicy

    public init(base: MergePolicy) {
        self.base = base.builtIn
    }

    /// Settles conflicts with rows other writers changed or deleted since `context` read them
    /// (`NSMergePolicy.resolve(optimisticLockingConflicts:)`): the default settles them by `base`.
    /// Throwing fails the save with the conflicts.
    open func resolve(optimisticLockingConflicts conflicts: [SaveError.Conflict], in context: ObjectContext) throws {
        context.settle(conflicts, by: base)
    }

    /// Settles inserted objects that clash on a uniqueness constraint
    /// (`NSMergePolicy.resolve(constraintConflicts:)`): the default merges each conflict's objects
    /// into its survivor by `base`. Throwing fails the save with the clashes.
    open func resolve(constraintConflicts conflicts: [ConstraintConflict], in context: ObjectContext) throws {
        for conflict in conflicts { context.merge(conflict, by: base) }
    }

    public static func == (lhs: CustomMergePolicy, rhs: CustomMergePolicy) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Objects that clash on a uniqueness constraint in one save: Core Data's `NSConstraintConflict`.
public struct ConstraintConflict {
    /// The names of the constraint's properties.
    public let constraint: [String]
    /// The stored object that has the values, if one does.
    public let databaseObject: ManagedObject?
    /// The inserted objects that have them, in the order they were inserted.
    public let conflictingObjects: [ManagedObject]

    /// The object the others merge into: the stored one, else the first inserted.
    public var survivor: ManagedObject { databaseObject ?? conflictingObjects[0] }

    /// The stored object, if any, then the inserted ones.
    public var allObjects: [ManagedObject] { (databaseObject.map { [$0] } ?? []) + conflictingObjects }
}
