import StoreSchema

/// The floor of a store schema: its values alone, made from a schema already computed — every
/// name the schema spells (tables, columns, join tables and their columns, indexes) created once
/// from its bytes, every array filled, and every other string (entity and property names in roles,
/// an index's table and key columns, `Z_PK` and its like) shared, as the builder shares them —
/// with no numbering, naming, sorting or index lookup at all.
///
/// The types mirror `StoreSchema`'s field for field (their initializers are the module's own), so
/// that making and releasing them costs what making and releasing the schema's values costs. Any
/// `StoreSchema(model:)` pays at least this, plus the computing.
public struct SchemaValuesFloor {
    struct Layout {
        var name: String, number: Int, superNumber: Int, rootName: String, tableName: String
        var subtreeNumbers: ClosedRange<Int>, isAbstract: Bool
    }
    struct Table { var name: String, rootEntity: String, columns: [Column] }
    struct Join {
        var name: String, relationship: RelationshipReference, inverse: RelationshipReference
        var sourceColumn: String, destinationColumn: String, destinationOrderColumn: String?, sourceOrderColumn: String?
    }
    struct Key { var column: String, isCollated: Bool, isDescending: Bool }
    struct Index { var name: String, table: String, keys: [Key], isUnique: Bool }

    var entities: [Layout]
    var tables: [Table]
    var joinTables: [Join]
    var indexes: [Index]

    /// The values of `schema`, made anew.
    public init(valuesOf schema: StoreSchema) {
        // A hierarchy's table name is made once, for its root, and shared by its subentities and its table.
        var entities: [Layout] = []
        entities.reserveCapacity(schema.entities.count)
        for layout in schema.entities {
            entities.append(Layout(
                name: layout.name, number: layout.number, superNumber: layout.superNumber, rootName: layout.rootName,
                tableName: layout.superNumber == 0 ? Self.made(layout.tableName) : entities[layout.superNumber - 1].tableName,
                subtreeNumbers: layout.subtreeNumbers, isAbstract: layout.isAbstract))
        }
        self.entities = entities
        let rootTableNames = entities.lazy.filter { $0.superNumber == 0 }.map(\.tableName)
        tables = zip(schema.tables, rootTableNames).map { table, name in
            Table(name: name, rootEntity: table.rootEntity, columns: table.columns.map(Self.made))
        }
        joinTables = schema.joinTables.map {
            Join(
                name: Self.made($0.name), relationship: $0.relationship, inverse: $0.inverse,
                sourceColumn: Self.made($0.sourceColumn), destinationColumn: Self.made($0.destinationColumn),
                destinationOrderColumn: $0.destinationOrderColumn.map(Self.made),
                sourceOrderColumn: $0.sourceOrderColumn.map(Self.made))
        }
        indexes = schema.indexes.map { index in
            Index(name: Self.made(index.name), table: index.table, keys: index.keys.map {
                Key(column: $0.column, isCollated: $0.isCollated, isDescending: $0.isDescending)
            }, isUnique: index.isUnique)
        }
    }

    /// `column` with its name made anew, unless the builder writes it as a literal (`Z_PK`, `Z_ENT`, `Z_OPT`).
    static func made(_ column: Column) -> Column {
        switch column.role {
        case .primaryKey, .entityNumber, .version: column
        default: Column(name: made(column.name), type: column.type, role: column.role)
        }
    }

    /// A new string with `text`'s bytes, made the cheapest way the standard library offers.
    @inline(never)
    static func made(_ text: String) -> String {
        var text = text
        return text.withUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether it holds as many entities, tables, columns, join tables and index keys as `schema`:
    /// a floor that made fewer values would measure less than the schema's.
    public func holdsAsManyValues(as schema: StoreSchema) -> Bool {
        entities.count == schema.entities.count && tables.count == schema.tables.count
            && tables.map(\.columns.count) == schema.tables.map(\.columns.count)
            && joinTables.count == schema.joinTables.count
            && indexes.map(\.keys.count) == schema.indexes.map(\.keys.count)
    }
}
