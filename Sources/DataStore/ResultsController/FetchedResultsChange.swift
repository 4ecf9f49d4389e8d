/// How an object or a section changed.
public enum FetchedResultsChangeType: String, Sendable {
    case insert, delete, move, update
}

/// One object's change, with index paths as a table view's batch updates take them: `indexPath`
/// in the layout before the change (deletes, moves, updates), `newIndexPath` in the layout after
/// it (inserts, moves).
public struct FetchedResultsChange: Hashable, Sendable, CustomStringConvertible {
    public var type: FetchedResultsChangeType
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
