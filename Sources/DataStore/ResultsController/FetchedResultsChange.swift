/// How an object or a section changed.
public enum FetchedResultsChangeType: String, Sendable {
    case insert, delete, move, update
}

/// One object's change, with index paths as a table view's batch updates take them: `indexPath`
/// in the layout before the change (deletes, moves, updates), `newIndexPath` in the layout after
/// it (inserts, moves).
///
/// An object whose sort key changed but whose index path did not is reported as an `.update` at
/// that index path, where Core Data reports a `.move` to the same index path: both are documented
/// behaviours, and an update is what a table view needs then — the row's content changed, its
/// place did not — while a move onto itself is an operation some list views reject.
public struct FetchedResultsChange: Hashable, Sendable, CustomStringConvertible {
    public var type: FetchedResultsChangeType
    /// The object's ID when the change was reported. An insert reported by `save()` comes before
    /// the write and carries the object's temporary ID; after the save that ID still finds the
    /// saved object in its context (`object(with:)`, `existingObject(with:)`), as Core Data's
    /// delegate hands the object itself.
    public var objectID: ObjectID
    public var indexPath: ResultsIndexPath?
    public var newIndexPath: ResultsIndexPath?

    public init(type: FetchedResultsChangeType, objectID: ObjectID, indexPath: ResultsIndexPath?, newIndexPath: ResultsIndexPath?) {
        self.type = type
        self.objectID = objectID
        self.indexPath = indexPath
        self.newIndexPath = newIndexPath
    }

    public var description: String {
        switch type {
        case .insert: "insert \(newIndexPath.map(String.init(describing:)) ?? "?")"
        case .delete: "delete \(indexPath.map(String.init(describing:)) ?? "?")"
        case .update: "update \(indexPath.map(String.init(describing:)) ?? "?")"
        case .move: "move \(indexPath.map(String.init(describing:)) ?? "?") -> \(newIndexPath.map(String.init(describing:)) ?? "?")"
        }
    }
}

/// A section inserted (index in the new layout) or deleted (index in the old layout).
public struct FetchedResultsSectionChange: Hashable, Sendable, CustomStringConvertible {
    public var type: FetchedResultsChangeType
    public var name: String
    public var sectionIndex: Int

    public init(type: FetchedResultsChangeType, name: String, sectionIndex: Int) {
        self.type = type
        self.name = name
        self.sectionIndex = sectionIndex
    }

    public var description: String { "\(type) section \(sectionIndex) \(name.debugDescription)" }
}
