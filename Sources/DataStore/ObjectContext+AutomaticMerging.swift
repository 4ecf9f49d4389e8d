/// Following the saves of other contexts and processes by itself, as Core Data's
/// `automaticallyMergesChangesFromParent` makes a context do.
extension ObjectContext {
    /// Whether the context merges every save made through its store by another context — or by
    /// another process, as the store learns of them (`monitorExternalChanges`, a server's
    /// notifications) — as `mergeChanges(from:)` does, in the order they were saved. Its objects
    /// then show the saved values (keeping this context's unsaved changes on top) and its
    /// results controllers and observers follow.
    ///
    /// Merges run on the context's isolation, recorded when it was made: a view context made on
    /// the main actor merges there, a `BackgroundContext` on its queue. A context made outside any
    /// actor merges on the thread that saved; use it so only when every save comes from its own
    /// thread.
    public var automaticallyMergesChangesFromParent: Bool {
        get { following != nil }
        set {
            guard newValue != (following != nil) else { return }
            if newValue { startFollowing() } else { stopFollowing() }
        }
    }

    private func startFollowing() {
        let context = UnsafeContextReference(self)
        let own = identifier
        guard isolation != nil else {
            let tokens = coordinator.addObservers { changes in
                guard changes.origin != own else { return }
                context.context?.mergeChanges(from: changes)
            }
            following = (tokens, nil)
            return
        }
        // One task takes the saves in order and merges each on the context's isolation.
        let (saves, delivery) = AsyncStream.makeStream(of: ChangeSet.self)
        let tokens = coordinator.addObservers { changes in
            if changes.origin != own { delivery.yield(changes) }
        }
        let task = Task {
            for await changes in saves {
                // The isolation is read each time: a background context's actor may be gone.
                guard let isolation = context.isolation else { return }
                await mergeFollowed(changes, into: context, on: isolation)
            }
        }
        following = (tokens, task)
    }

    private func stopFollowing() {
        guard let following else { return }
        stopFollowing(following)
        self.following = nil
    }

    func stopFollowing(_ following: (tokens: [UInt64], task: Task<Void, Never>?)) {
        coordinator.removeObservers(following.tokens)
        following.task?.cancel()
    }

}

/// Merges `changes` into the referenced context, on its isolation.
private func mergeFollowed(_ changes: ChangeSet, into reference: UnsafeContextReference, on isolation: isolated any Actor) {
    reference.context?.mergeChanges(from: changes)
}

/// A context, weakly, handed to the task that merges into it. Sendable by promise: it is read only
/// on the context's own isolation (or, for a context of none, where the context's owner saves).
private final class UnsafeContextReference: @unchecked Sendable {
    weak var context: ObjectContext?
    /// The context's isolation, weakly, readable from the merging task.
    weak var isolation: (any Actor)?

    init(_ context: ObjectContext) {
        self.context = context
        isolation = context.isolation
    }
}
