/// One key of a fetch's order: a key path (through to-one relationships) to an attribute, a
/// direction, and how strings compare. The store's SQL and in-memory sorting give the same order.
///
///     ObjectSortDescriptor("details.closeDate", ascending: false)
///     ObjectSortDescriptor(Book.title, comparator: .localizedStandardCompare)
public struct ObjectSortDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// How values compare. Only strings differ: numbers, dates and other values always compare by
    /// value.
    public enum Comparator: String, Sendable, Hashable {
        /// By UTF-8 bytes, as SQLite's default collation.
        case compare
        /// Ignoring case (`[c]`'s folding); strings differing only in case are equal here.
        case caseInsensitiveCompare
        /// As Finder lists names: numbers inside strings by value (`file2` before `file10`),
        /// ignoring case and accents first, then accents, then case.
        case localizedStandardCompare
    }

    public var keyPath: String
    public var ascending: Bool
    public var comparator: Comparator

    public init(_ keyPath: String, ascending: Bool = true, comparator: Comparator = .compare) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.comparator = comparator
    }

    /// A sort descriptor on a typed attribute of an entity class.
    public init<Root, Value>(_ key: AttributeKey<Root, Value>, ascending: Bool = true, comparator: Comparator = .compare) {
        self.init(key.name, ascending: ascending, comparator: comparator)
    }

    public var description: String {
        "(\(keyPath), \(ascending ? "ascending" : "descending"), \(comparator.rawValue):)"
    }
}
