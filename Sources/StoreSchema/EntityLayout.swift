/// Where an entity lives in the store: its number, its parent's, and its table.
public struct EntityLayout: Sendable, Hashable {
    public var name: String
    /// `Z_ENT`, from a pre-order walk of the inheritance forest with names sorted case-insensitively.
    public var number: Int
    /// The parent's number, 0 for a root (`Z_PRIMARYKEY.Z_SUPER`).
    public var superNumber: Int
    public var rootName: String
    public var tableName: String
    /// This entity's number through its last descendant's: pre-order numbering makes every subtree
    /// a contiguous range, so "this entity or a subentity" is one range test on `Z_ENT`.
    public var subtreeNumbers: ClosedRange<Int>
    public var isAbstract: Bool
}
