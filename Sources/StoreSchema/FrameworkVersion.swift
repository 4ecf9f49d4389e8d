/// A release of Core Data, numbered as a store's `NSPersistenceFrameworkVersion` numbers it, and the
/// parts of the store layout that changed between releases.
///
/// New stores get the layout of ``current``. Stores an older release wrote keep that release's
/// layout for as long as they live (Core Data never rewrites what migrations leave alone), so
/// `StoreSchema(model:framework:)` can compute it: each rule below names the releases its stores
/// were checked on. Releases between two checked ones follow the earlier rule's guess, stated per
/// rule.
public struct FrameworkVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var number: Int

    public init(_ number: Int) {
        self.number = number
    }

    /// The release whose layout and metadata new stores get (iOS 17 / macOS 14).
    public static let current = FrameworkVersion(1344)

    /// Whether an `indexed` attribute's index is named `<TABLE>_<COLUMN>_INDEX` and a compound index
    /// `<TABLE>_<COLUMN>_<COLUMN>…`, both without collation, rather than `Z_<Entity>_<name>` with
    /// `COLLATE BINARY ASC` keys. Seen in stores of 419 and 641; from 851 (iOS 11) the framework
    /// turns both into fetch indexes, as Xcode 9 does in the model.
    var namesIndexesAfterColumns: Bool { number < 851 }

    /// Whether each join table has the reverse index (`Z_1TAGS_Z_2TAGS_INDEX`). Absent at 419,
    /// present from 641 on; releases between are taken to have it.
    var indexesJoinTables: Bool { number >= 641 }

    /// Whether the `Z_FOK_` order keys of a table follow its whole integer group (ordered by the
    /// number of the entity declaring the ordered to-many, then by name, descending) rather than
    /// each the foreign keys of its entity. Seen at 641; 1251 and later follow each entity's keys;
    /// releases between are taken to follow the later rule.
    var placesOrderKeysAfterIntegers: Bool { number < 754 }

    public static func < (lhs: FrameworkVersion, rhs: FrameworkVersion) -> Bool {
        lhs.number < rhs.number
    }

    public var description: String { String(number) }
}
