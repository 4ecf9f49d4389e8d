/// A column of an entity table, and what it stores.
public struct Column: Sendable, Hashable {
    /// What a column holds.
    public enum Role: Sendable, Hashable {
        /// `Z_PK`: the row's primary key, unique across the whole hierarchy.
        case primaryKey
        /// `Z_ENT`: the row's concrete entity number.
        case entityNumber
        /// `Z_OPT`: the optimistic-locking version.
        case version
        /// An attribute of `entity`.
        case attribute(entity: String, attribute: String)
        /// One leaf of a composite attribute (`path` names the nested attributes, outermost first).
        case compositeMember(entity: String, attribute: String, path: [String])
        /// The destination's `Z_PK` of the to-one `relationship` of `entity`.
        case foreignKey(entity: String, relationship: String)
        /// `Z<n>_<REL>`: the destination's `Z_ENT`, when the destination entity has subentities.
        case foreignEntity(entity: String, relationship: String)
        /// `Z_FOK_<REL>`: the row's position in the ordered to-many inverse of `relationship`.
        case orderKey(entity: String, relationship: String)
        /// `Z<n><REL>` in the destination table of a to-many `relationship` that has no inverse:
        /// the source row's `Z_PK`.
        case inverselessToMany(entity: String, relationship: String)
    }

    public var name: String
    public var type: ColumnType
    public var role: Role

    public init(name: String, type: ColumnType, role: Role) {
        self.name = name
        self.type = type
        self.role = role
    }
}
