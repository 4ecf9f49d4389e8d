/// Why a results controller cannot fetch.
public enum FetchedResultsError: Error, Equatable, CustomStringConvertible {
    /// A list needs an order: the request has no sort descriptors.
    case missingSortDescriptors(entity: String)
    /// Sections are runs of equal section values, so the section key path must be the first sort
    /// key; here it sorts later.
    case sectionKeyPathNotFirstSortKey(sectionKeyPath: String, sortKeyPaths: [String])
    /// The section key path's sort descriptor compares strings loosely (`caseInsensitiveCompare`…),
    /// so equal sort values could carry different section names.
    case sectionSortNotExact(sectionKeyPath: String, comparator: ObjectSortDescriptor.Comparator)
    /// The fetch itself failed.
    case fetch(ContextError)

    public var description: String {
        switch self {
        case .missingSortDescriptors(let entity):
            "a results controller needs at least one sort descriptor (fetch request for '\(entity)')"
        case .sectionKeyPathNotFirstSortKey(let keyPath, let sortKeyPaths):
            "section key path '\(keyPath)' must be the first sort key; the sort is \(sortKeyPaths.joined(separator: ", "))"
        case .sectionSortNotExact(let keyPath, let comparator):
            "section key path '\(keyPath)' must sort with 'compare', not '\(comparator.rawValue)', so that equal values form one section"
        case .fetch(let error):
            error.description
        }
    }
}
