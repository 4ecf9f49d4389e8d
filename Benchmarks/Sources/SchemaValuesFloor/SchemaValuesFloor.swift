import StoreSchema

/// The floor of a store schema: its values alone, made from a schema already computed — every
/// name the schema spells (tables, columns, join tables and their columns, indexes) created once
/// from its bytes, every array filled, and every other string (entity and property names in roles,
/// an index's table and key columns) shared, as the builder shares them — with no numbering,
/// naming, sorting or index lookup at all.
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
        entities = schema.entities.map {
            Layout(
                name: $0.name, number: $0.number, superNumber: $0.superNumber, rootName: $0.rootName,
                tableName: Self.made($0.tableName), subtreeNumbers: $0.subtreeNumbers, isAbstract: $0.isAbstract)
        }
        tables = schema.tables.map { table in
            Table(name: Self.made(table.name), rootEntity: table.rootEntity, columns: table.columns.map {
                Column(name: Self.made($0.name), type: $0.type, role: $0.role)
            })
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
