/// The table of one root entity, holding the rows of its whole hierarchy (single-table inheritance).
public struct EntityTable: Sendable, Hashable {
    /// `Z` + the root entity's name, uppercased.
    public var name: String
    public var rootEntity: String
    /// `Z_PK`, `Z_ENT`, `Z_OPT`, then the hierarchy's columns in Core Data's order.
    public var columns: [Column]

    public func column(for role: Column.Role) -> Column? {
        columns.first { $0.role == role }
    }
}

/// The table of a many-to-many relationship pair.
public struct JoinTable: Sendable, Hashable {
    /// `Z_<a><R>`.
    public var name: String
    /// The relationship that names the table (`R`, declared on entity `a`) and its inverse (`S`).
    public var relationship: RelationshipReference
    public var inverse: RelationshipReference
    /// `Z_<a><S>`: the primary keys of the rows on `relationship`'s side (entity `a`).
    public var sourceColumn: String
    /// `Z_<b><R>`: the primary keys of the rows `relationship` points at.
    public var destinationColumn: String
    /// `Z_FOK_<b><R>` when `relationship` is ordered: the position of the destination in it.
    public var destinationOrderColumn: String?
    /// `Z_FOK_<a><S>` when the inverse is ordered.
    public var sourceOrderColumn: String?

    /// Every column in DDL order: the keys, then the order keys in the same order (when both sides
    /// are ordered: `Z_2CALLPARTICIPANTS (Z_2ACTIVECALLCONVERSATIONS, Z_13CALLPARTICIPANTS,
    /// Z_FOK_2ACTIVECALLCONVERSATIONS, Z_FOK_13CALLPARTICIPANTS)`).
    public var columnNames: [String] {
        [sourceColumn, destinationColumn] + [sourceOrderColumn, destinationOrderColumn].compactMap { $0 }
    }
}

/// A relationship named by its entity.
public struct RelationshipReference: Sendable, Hashable {
    public var entity: String
    public var relationship: String

    public init(entity: String, relationship: String) {
        self.entity = entity
        self.relationship = relationship
    }
}

/// An index the store has.
public struct StoreIndex: Sendable, Hashable {
    /// A column of an index, with Core Data's collation and order where it writes them.
    public struct Key: Sendable, Hashable {
        public var column: String
        /// `true` for `COLLATE BINARY ASC|DESC` keys (fetch indexes, constraints), `false` for plain ones.
        public var isCollated: Bool
        public var isDescending: Bool
    }

    public var name: String
    public var table: String
    public var keys: [Key]
    public var isUnique: Bool
}
