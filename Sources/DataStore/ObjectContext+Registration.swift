/// The objects a context holds, by Core Data's names.
extension ObjectContext {
    /// Every object the context holds: fetched, reached through relationships, inserted, changed
    /// or deleted and not yet saved. Objects nothing else holds leave it, as in Core Data.
    public var registeredObjects: Set<ManagedObject> {
        Set(registeredObjectList)
    }

    /// Refreshes every registered object, as Core Data's `refreshAllObjects()` does: an object
    /// without unsaved changes becomes a fault, and reads the store's values at its next use; one
    /// with changes reads them now and keeps its changes on top. Inserted objects stay as they are.
    public func refreshAllObjects() {
        for object in registeredObjectList where object.isLoaded && !inserted.contains(object) {
            refresh(object, mergeChanges: updated.contains(object) || deleted.contains(object))
        }
    }
}
