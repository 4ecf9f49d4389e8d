import DataModel
import StoreSchema

/// An entity as the runtime sees it: its number and table, and every property (inherited ones
/// first) with its slot in an object's storage and its place in the store.
///
/// Built once per store from the model and `StoreSchema`; shared, immutable.
public final class EntityDescription: Sendable, CustomStringConvertible {
    public let name: String
    /// `Z_ENT`.
    public let number: Int
    /// The entity numbers of this entity and all its subentities (a contiguous range).
    public let subtreeNumbers: ClosedRange<Int>
    public let superentityName: String?
    public let isAbstract: Bool
    /// The root entity's table, which holds the rows of the whole hierarchy.
    public let tableName: String
    /// The number of the hierarchy's root, whose `Z_PRIMARYKEY` row keeps `Z_MAX`.
    let rootNumber: Int
    /// Every attribute, inherited ones first; an attribute's `slot` is its index here.
    public let attributes: [AttributeDescription]
    /// Every relationship, inherited ones first; a relationship's `slot` is its index here.
    public let relationships: [RelationshipDescription]
    /// The uniqueness constraints, own and inherited, as property-name lists.
    public let uniquenessConstraints: [[String]]
    /// The class that materialises this entity's objects.
    public let objectClass: ManagedObject.Type
    /// Whether reads of its objects' properties register with Observation (`objectClass.isObservable`).
    let isObservable: Bool
    /// Whether its objects are told of their lifecycle (`objectClass` is a `ManagedObjectLifecycle`).
    let hasLifecycle: Bool
    /// The key paths observation tracks the properties by.
    let observationKeys: ObservationKeys
    /// The columns of the table, in order: attribute and foreign-key column indexes point into it.
    let tableColumns: [String]
    /// `SELECT` of every table column, for loading this entity's rows: the entity number (`Z_ENT`, or `0`),
    /// `Z_PK`, `Z_OPT`, then the rest in table order, so that column indexes past `Z_OPT` are the table's.
    let selectColumns: SQL
    /// The `DELETE` of an object's row whose `Z_PK` and `Z_OPT` are the arguments.
    let deleteStatement: SQL
    /// The `SELECT` of `selectColumns` of the row whose `Z_PK` is the argument: a fault's, made
    /// into text once.
    let rowSelection: SQL
    /// The columns of a new row, in the order it binds them: `Z_PK, Z_ENT, Z_OPT`, the stored
    /// attributes in slot order, then each to-one's key (and destination entity) column in slot order.
    let insertColumns: [String]
    /// How a row of the table fills an object of this entity.
    let rowLayout: RowLayout
    /// The attributes and relationships with a rule a save checks (a required value, bounds, a
    /// pattern, counts): an entity without rules costs nothing to validate.
    let attributeRules: [AttributeRule]
    let validatedRelationshipSlots: [Int]

    /// What a save checks of one attribute, as plain data: checking that a value is present is
    /// the common rule and runs for every saved object.
    struct AttributeRule: Sendable {
        let slot: Int
        let isRequired: Bool
        /// Bounds, a pattern or members, checked on the description when there is a value.
        let hasValueRules: Bool
    }

    private let attributeSlots: [String: Int]
    private let relationshipSlots: [String: Int]

    init(
        name: String, number: Int, subtreeNumbers: ClosedRange<Int>, superentityName: String?, isAbstract: Bool,
        tableName: String, rootNumber: Int, attributes: [AttributeDescription], relationships: [RelationshipDescription],
        uniquenessConstraints: [[String]], objectClass: ManagedObject.Type, fillsProperties: Bool, tableColumns: [String]
    ) {
        self.name = name
        self.number = number
        self.subtreeNumbers = subtreeNumbers
        self.superentityName = superentityName
        self.isAbstract = isAbstract
        self.tableName = tableName
        self.rootNumber = rootNumber
        self.attributes = attributes
        self.relationships = relationships
        self.uniquenessConstraints = uniquenessConstraints
        self.objectClass = objectClass
        isObservable = objectClass.isObservable
        hasLifecycle = objectClass is any ManagedObjectLifecycle.Type
        observationKeys = .covering(attributeCount: attributes.count, relationshipCount: relationships.count)
        self.tableColumns = tableColumns
        // Core Data's order: the entity number first, `0` for an entity alone in its table (whose
        // rows need not say it), then `Z_PK`, `Z_OPT` and the rest in table order.
        let entityColumn: SQL = Self.isSoleEntityOfTable(superentityName: superentityName, subtreeNumbers: subtreeNumbers) ? "0" : "t0.\(.Z_ENT)"
        selectColumns = ([entityColumn, "t0.\(.Z_PK)"] + tableColumns.dropFirst(2).map { "t0.\(name: $0)" }).joined(separator: ", ")
        deleteStatement = ("DELETE FROM \(name: tableName) WHERE \(.Z_PK) = ? AND \(.Z_OPT) = ?" as SQL).reusable
        rowSelection = ("SELECT \(selectColumns) FROM \(name: tableName) t0 WHERE t0.\(.Z_PK) = ?" as SQL).reusable
        var insertColumns = ["Z_PK", "Z_ENT", "Z_OPT"]
        for attribute in attributes {
            attribute.forEachStoredColumn(of: .null) { index, _ in insertColumns.append(tableColumns[index]) }
        }
        for relationship in relationships {
            guard case .foreignKey(let column, let entityColumn, _) = relationship.storage else { continue }
            insertColumns += [tableColumns[column]] + (entityColumn.map { [tableColumns[$0]] } ?? [])
        }
        self.insertColumns = insertColumns
        rowLayout = RowLayout(
            attributes: attributes, relationships: relationships,
            fillsProperties: fillsProperties)
        attributeRules = attributes.filter(\.hasValidationRules).map { attribute in
            AttributeRule(slot: attribute.slot, isRequired: !attribute.isOptional, hasValueRules: attribute.hasValueRules)
        }
        validatedRelationshipSlots = relationships.filter(\.hasValidationRules).map(\.slot)
        attributeSlots = Dictionary(attributes.map { ($0.name, $0.slot) }, uniquingKeysWith: { first, _ in first })
        relationshipSlots = Dictionary(relationships.map { ($0.name, $0.slot) }, uniquingKeysWith: { first, _ in first })
    }

    /// The attribute named `name`, own or inherited.
    public func attribute(named name: String) -> AttributeDescription? {
        attributeSlots[name].map { attributes[$0] }
    }

    /// The relationship named `name`, own or inherited.
    public func relationship(named name: String) -> RelationshipDescription? {
        relationshipSlots[name].map { relationships[$0] }
    }

    /// Whether `other` is this entity or one of its subentities.
    public func isKind(of other: EntityDescription) -> Bool {
        other.subtreeNumbers.contains(number)
    }

    public var hasSubentities: Bool { subtreeNumbers.count > 1 }

    /// Whether the entity's table holds its rows only: no superentity, no subentities.
    var isSoleEntityOfTable: Bool { Self.isSoleEntityOfTable(superentityName: superentityName, subtreeNumbers: subtreeNumbers) }

    private static func isSoleEntityOfTable(superentityName: String?, subtreeNumbers: ClosedRange<Int>) -> Bool {
        superentityName == nil && subtreeNumbers.count == 1
    }

    public var description: String { name }
}
