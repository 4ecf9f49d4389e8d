/// The list as values: section names and object IDs in order, and the objects changed in place
/// since the previous snapshot — the form diffable data sources take.
public struct FetchedResultsSnapshot: Hashable, Sendable {
    public struct Section: Hashable, Sendable {
        public var name: String
        public var itemIdentifiers: [ObjectID]
    }

    public var sections: [Section]
    /// Objects whose values changed without moving (the controller's `update` changes).
    public var reloadedItemIdentifiers: [ObjectID]

    /// No sections, as before the first fetch.
    public static let empty = FetchedResultsSnapshot(sections: [], reloadedItemIdentifiers: [])

    public var sectionIdentifiers: [String] { sections.map(\.name) }
    public var itemIdentifiers: [ObjectID] { sections.flatMap(\.itemIdentifiers) }
    public var numberOfItems: Int { sections.reduce(0) { $0 + $1.itemIdentifiers.count } }
}
