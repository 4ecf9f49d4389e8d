/// The place of an object in a results controller: its section and its position in the section.
///
/// Its own type because Foundation's `IndexPath` has `section` and `item` only with UIKit or
/// AppKit; on Apple platforms, `IndexPath(item: path.item, section: path.section)` converts.
public struct ResultsIndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var section: Int
    public var item: Int

    public init(item: Int, section: Int) {
        self.item = item
        self.section = section
    }

    public static func < (lhs: ResultsIndexPath, rhs: ResultsIndexPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    public var description: String { "[\(section), \(item)]" }
}
