/// Told how a results controller's list changed, as Core Data's `NSFetchedResultsControllerDelegate`.
///
/// Between `controllerWillChangeContent` and `controllerDidChangeContent` come the section
/// changes (deletes, then inserts), then the object changes (deletes, inserts, moves, updates).
/// Applied to the previous list with a table view's batch-update rules, they give the new list.
/// An object whose sort key changed but whose index path did not is an `.update`, where Core Data
/// reports a `.move` to the same index path (``FetchedResultsChange`` says why); an insert that
/// `save()` reports names the object by a temporary ID that still finds it after the save. Every
/// method has a default that does nothing.
public protocol FetchedResultsControllerDelegate<Object>: AnyObject {
    associatedtype Object: ManagedObject

    func controllerWillChangeContent(_ controller: FetchedResultsController<Object>)
    func controller(_ controller: FetchedResultsController<Object>, didChange section: FetchedResultsSectionChange)
    func controller(_ controller: FetchedResultsController<Object>, didChange change: FetchedResultsChange)
    func controllerDidChangeContent(_ controller: FetchedResultsController<Object>)

    /// Whether to receive the list as a snapshot (`controller(_:didChangeContentWith:)`) instead
    /// of the per-change callbacks. Default `false`.
    var prefersSnapshots: Bool { get }
    func controller(_ controller: FetchedResultsController<Object>, didChangeContentWith snapshot: FetchedResultsSnapshot)

    /// The index title of a section; `nil` (the default) for the capitalised first letter of its name.
    func controller(_ controller: FetchedResultsController<Object>, sectionIndexTitleForSectionName name: String) -> String?
}

extension FetchedResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: FetchedResultsController<Object>) {}
    public func controller(_ controller: FetchedResultsController<Object>, didChange section: FetchedResultsSectionChange) {}
    public func controller(_ controller: FetchedResultsController<Object>, didChange change: FetchedResultsChange) {}
    public func controllerDidChangeContent(_ controller: FetchedResultsController<Object>) {}
    public var prefersSnapshots: Bool { false }
    public func controller(_ controller: FetchedResultsController<Object>, didChangeContentWith snapshot: FetchedResultsSnapshot) {}
    public func controller(_ controller: FetchedResultsController<Object>, sectionIndexTitleForSectionName name: String) -> String? { nil }
}
