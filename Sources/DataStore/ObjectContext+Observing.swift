/// Telling observers what changed. Changes collect as objects are edited and are delivered by
/// `processPendingChanges()` — which `save()` and `mergeChanges(from:)` call — so that a batch of
/// edits arrives as one notification, as Core Data delivers them at the end of an event.
extension ObjectContext {
    /// A registration made by `addObserver(_:)`.
    public struct ObserverToken: Hashable, Sendable {
        let value: UInt64
    }

    /// Calls `observer` with every batch of changes from now on, on the context's isolation.
    @discardableResult
    public func addObserver(_ observer: @escaping (ObjectsDidChange) -> Void) -> ObserverToken {
        nextChangeObserver += 1
        changeObservers[nextChangeObserver] = observer
        return ObserverToken(value: nextChangeObserver)
    }

    public func removeObserver(_ token: ObserverToken) {
        changeObservers[token.value] = nil
        if changeObservers.isEmpty { unprocessed.removeAll() }
    }

    /// Tells observers about the objects inserted, changed and deleted since they were last told.
    /// Also ends the current undo event: the changes since the last call are one undo step.
    public func processPendingChanges() {
        undoManager?.endEvent()
        notifyObservers(takePendingChanges())
    }

    /// The changes observers have not been told about, forgotten here.
    func takePendingChanges() -> ObjectsDidChange {
        var changes = ObjectsDidChange()
        for object in unprocessed.objects {
            if object.context !== self || deleted.contains(object) {
                changes.deleted.insert(object.objectID)
            } else if inserted.contains(object) {
                changes.inserted.insert(object.objectID)
            } else {
                changes.updated.insert(object.objectID)
            }
        }
        unprocessed.removeAll()
        return changes
    }

    func notifyObservers(_ changes: ObjectsDidChange) {
        guard !changes.isEmpty else { return }
        for observer in changeObservers.values { observer(changes) }
    }
}
