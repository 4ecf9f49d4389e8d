import DataModel

/// A relationship as the runtime uses it: destination, inverse, rules, and where the store keeps it.
public struct RelationshipDescription: Sendable {
    public let name: String
    /// The index of the value in an object's relationship storage.
    public let slot: Int
    public let destinationEntityName: String
    /// The destination's `Z_ENT`: the entity of a referenced row unless the store says otherwise.
    public let destinationEntityNumber: Int
    public let inverseName: String?
    public let isToMany: Bool
    public let isOrdered: Bool
    public let isOptional: Bool
    public let isTransient: Bool
    public let deleteRule: Relationship.DeleteRule
    /// Bounds on the number of destination objects (to-many), from the model; `nil` when unbounded.
    public let minCount: Int?
    public let maxCount: Int?
    /// The entity that declares the relationship.
    public let entityName: String
    let storage: Storage

    /// Where the store keeps a relationship.
    enum Storage: Sendable {
        /// A to-one: the destination's `Z_PK` in this row; `entityColumn` holds its `Z_ENT` when the
        /// destination has subentities, `orderColumn` this row's position in an ordered inverse.
        /// Indexes are into the table's column list.
        case foreignKey(column: Int, entityColumn: Int?, orderColumn: Int?)
        /// A to-many whose inverse is a to-one: the destination rows point back at this row
        /// through `column` of the destination's table, ordered by `orderColumn` when ordered.
        case inverseForeignKey(table: String, column: String, orderColumn: String?)
        /// A many-to-many: rows of a join table pair this row's key (`ownColumn`) with a
        /// destination's (`otherColumn`), ordered by `orderColumn` when ordered.
        case joinTable(table: String, ownColumn: String, otherColumn: String, orderColumn: String?, inverseOrderColumn: String?)
        /// A to-many without inverse: a hidden column in the destination's table holds this row's key.
        case hiddenColumn(table: String, column: String)
        /// A transient relationship: memory only.
        case none
    }

    public var isToOne: Bool { !isToMany }

    /// Whether a to-many with `count` destinations is within its bounds, as Core Data checks them:
    /// the bounds apply to a value that is there, so an optional to-many may be empty whatever its
    /// minimum; a required one may be empty too unless its minimum says otherwise (SwiftData's
    /// `[T] = []` relationships are required, and stores hold them empty).
    func acceptsCount(_ count: Int) -> Bool {
        if isOptional && count == 0 { return true }
        return count >= (minCount ?? 0) && (maxCount.map { count <= $0 } ?? true)
    }

    /// Whether a save has a rule to check: a required to-one, or bounds on a to-many's count.
    var hasValidationRules: Bool {
        !isTransient && (isToOne ? !isOptional : (minCount ?? 0) > 0 || maxCount != nil)
    }
}

extension RelationshipDescription {
    /// Where a to-many's destination rows are found, as SQL with the destination aliased `t0`:
    /// the `FROM` clause, the column holding the owner's key, and the relationship's order.
    /// `nil` for a to-one or a transient relationship.
    func toManySource(destinationTable: String) -> (from: SQL, owner: SQL, order: SQL)? {
        switch storage {
        case .inverseForeignKey(let table, let column, let orderColumn):
            ("FROM \(name: table) t0", "t0.\(name: column)", "t0.\(name: orderColumn ?? "Z_PK")")
        case .hiddenColumn(let table, let column):
            ("FROM \(name: table) t0", "t0.\(name: column)", "t0.\(.Z_PK)")
        case .joinTable(let table, let ownColumn, let otherColumn, let orderColumn, _):
            ("FROM \(name: table) t1 JOIN \(name: destinationTable) t0 ON t0.\(.Z_PK) = t1.\(name: otherColumn)", "t1.\(name: ownColumn)",
             orderColumn.map { "t1.\(name: $0)" } ?? "t0.\(.Z_PK)")
        case .foreignKey, .none:
            nil
        }
    }
}
