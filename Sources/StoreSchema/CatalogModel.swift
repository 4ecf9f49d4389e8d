import DataModel

/// What a store without a model cache tells of its model: its entities (`Z_PRIMARYKEY`), its
/// tables and their columns, which columns are indexed, and where its to-one keys point (found
/// from their values).
public struct StoreCatalog: Sendable {
    public struct Entity: Sendable {
        public var number: Int
        public var name: String
        /// The superentity's number; 0 for none.
        public var superNumber: Int

        public init(number: Int, name: String, superNumber: Int) {
            self.number = number
            self.name = name
            self.superNumber = superNumber
        }
    }

    public struct Column: Sendable {
        public var name: String
        /// The declared type: `INTEGER`, `VARCHAR`, `TIMESTAMP`…
        public var type: String

        public init(name: String, type: String) {
            self.name = name
            self.type = type
        }
    }

    public var entities: [Entity]
    /// Every table's columns, in order.
    public var tables: [String: [Column]]
    /// The columns each table indexes alone.
    public var indexedColumns: [String: Set<String>]
    /// By `TABLE.COLUMN`: the entity whose rows an indexed integer column's values are keys of,
    /// when one entity's alone are.
    public var keyDestinations: [String: String]
    /// The `TABLE.COLUMN`s of indexed integer columns that hold no value.
    public var emptyColumns: Set<String>

    public init(
        entities: [Entity], tables: [String: [Column]], indexedColumns: [String: Set<String>], keyDestinations: [String: String],
        emptyColumns: Set<String> = []
    ) {
        self.entities = entities
        self.tables = tables
        self.indexedColumns = indexedColumns
        self.keyDestinations = keyDestinations
        self.emptyColumns = emptyColumns
    }

    /// The integer columns that may be to-one keys: indexed, and not the row's own bookkeeping.
    /// Core Data indexes every to-one key column.
    public var keyColumnCandidates: [(table: String, column: String)] {
        tables.keys.sorted().flatMap { table in
            (tables[table] ?? []).filter { column in
                column.type.uppercased() == "INTEGER" && !column.name.hasPrefix("Z_") && indexedColumns[table]?.contains(column.name) == true
            }.map { (table, $0.name) }
        }
    }
}

/// A model rebuilt from a store's catalog, for stores the oldest Core Data releases wrote without
/// a model cache: as much of the model as the layout encodes, and what it cannot tell.
///
/// Recovered: entity names, numbers and hierarchy; attributes from columns (`ZFIRSTNAME` →
/// `firstname`), typed by the declared column type; to-one relationships from indexed key
/// columns whose values are keys of one entity; many-to-many relationships from join tables
/// (`Z_1ARTISTS (Z_1ALBUMSFEATURINGARTIST, Z_2ARTISTS)`), both sides; to-many relationships
/// without inverse from their hidden columns (`ZCARTITEMMODEL.Z3ITEMS`). Not recoverable, and named
/// in `unrecovered`: the case of names, which subentity of a shared table declares a column,
/// integer types' width and Booleans, inverses of to-ones, delete rules, optionality, defaults,
/// validation, and every transient property.
public enum CatalogModel {
    public static func build(_ catalog: StoreCatalog, path: String) -> (model: Model, unrecovered: [String]) {
        let here = SourceLocation(file: path)
        var unrecovered = [
            "names are as the layout writes them, in lower case (ZFIRSTNAME → firstname)",
            "integer attributes read as Integer 64 (Booleans and narrower integers look alike)",
            "optionality, defaults, validation, delete rules, inverses of to-one relationships and transient properties are not stored",
        ]
        let byNumber = Dictionary(catalog.entities.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        func root(_ entity: StoreCatalog.Entity) -> StoreCatalog.Entity {
            var current = entity
            while let parent = byNumber[current.superNumber], parent.number != current.number { current = parent }
            return current
        }
        var entities: [String: Entity] = [:]
        for entity in catalog.entities {
            let parent = byNumber[entity.superNumber]?.name
            entities[entity.name] = Entity(name: entity.name, parentName: parent, location: here)
        }
        // Each root entity's table holds the columns of its whole hierarchy: they go to the root.
        for entity in catalog.entities where entity.superNumber == 0 {
            let table = "Z" + entity.name.uppercased()
            guard let columns = catalog.tables[table] else {
                unrecovered.append("\(entity.name): no table \(table)")
                continue
            }
            if catalog.entities.contains(where: { $0.superNumber != 0 && root($0).number == entity.number }) {
                unrecovered.append("\(entity.name): the columns of its table are all its own; which subentity declares each is not stored")
            }
            for column in columns where column.name.hasPrefix("Z") && !column.name.hasPrefix("Z_") {
                if column.name.dropFirst().first?.isNumber ?? false {
                    // `Z3_ARTIST` holds a to-one destination's entity, which the runtime keeps
                    // itself; `Z3ITEMS` the owner's key of entity 3's to-many `items` without inverse.
                    if let (owner, name) = numbered(column.name, byNumber: byNumber), !name.contains("_"),
                       !columns.contains(where: { $0.name == "Z" + name.uppercased() }) {
                        entities[owner]?.relationships.append(Relationship(name: name, destinationEntityName: entity.name, isToMany: true, location: here))
                    }
                    continue
                }
                let name = String(column.name.dropFirst()).lowercased()
                if let destination = catalog.keyDestinations["\(table).\(column.name)"] {
                    entities[entity.name]?.relationships.append(Relationship(name: name, destinationEntityName: destination, location: here))
                } else if let type = attributeType(declared: column.type) {
                    entities[entity.name]?.attributes.append(Attribute(name: name, type: type, isOptional: true, location: here))
                    if type == .integer64, catalog.indexedColumns[table]?.contains(column.name) == true {
                        let why = catalog.emptyColumns.contains("\(table).\(column.name)") ? "it holds no value" : "its values are keys in several entities' tables, or in none"
                        unrecovered.append("\(entity.name).\(name): indexed like a to-one key, but its destination cannot be told (\(why)); read as a number")
                    }
                } else {
                    unrecovered.append("\(table).\(column.name): the declared type \(column.type) names no attribute type")
                }
            }
        }
        for (table, columns) in catalog.tables where table.hasPrefix("Z_") && columns.count == 2 {
            guard let sides = joinSides(columns.map(\.name), byNumber: byNumber) else { continue }
            // Each column holds the keys of its entity, and is named by the relationship that reaches it.
            let (first, second) = (sides[0], sides[1])
            entities[second.entity]?.relationships.append(Relationship(
                name: first.relationship, destinationEntityName: first.entity, inverseName: second.relationship,
                inverseEntityName: first.entity, isToMany: true, location: here))
            entities[first.entity]?.relationships.append(Relationship(
                name: second.relationship, destinationEntityName: second.entity, inverseName: first.relationship,
                inverseEntityName: second.entity, isToMany: true, location: here))
        }
        for entity in catalog.entities { entities[entity.name]?.relationships.sort { $0.name < $1.name } }
        let ordered = catalog.entities.sorted { $0.number < $1.number }.compactMap { entities[$0.name] }
        return (Model(path: path, entities: ordered), unrecovered)
    }

    /// The two sides of a join table's columns `Z_<entity number><relationship name>[digits]`:
    /// each column's entity, and the name of the relationship of the other entity that reaches it.
    private static func joinSides(_ columns: [String], byNumber: [Int: StoreCatalog.Entity]) -> [(entity: String, relationship: String)]? {
        var sides: [(entity: String, relationship: String)] = []
        for column in columns {
            guard let side = numbered(String(column.dropFirst(2)), byNumber: byNumber) else { return nil }
            sides.append(side)
        }
        return sides
    }

    /// The entity and the lower-cased name a `<prefix><entity number><NAME>[digits]` column
    /// encodes (`Z_3ARTWORKS1`, `Z3ITEMS`), after its one-letter or `Z_` prefix.
    private static func numbered(_ column: String, byNumber: [Int: StoreCatalog.Entity]) -> (entity: String, relationship: String)? {
        let body = column.drop { !$0.isNumber }
        let digits = body.prefix { $0.isNumber }
        guard let number = Int(digits), let entity = byNumber[number] else { return nil }
        // A collision suffix (`ARTWORKS1`) is not part of the name.
        let name = String(body.dropFirst(digits.count).reversed().drop { $0.isNumber }.reversed()).lowercased()
        return name.isEmpty ? nil : (entity.name, name)
    }

    /// The attribute type a column's declared type stores.
    static func attributeType(declared: String) -> AttributeType? {
        switch declared.uppercased() {
        case "INTEGER": .integer64
        case "FLOAT", "REAL": .double
        case "TIMESTAMP": .date
        case "DECIMAL": .decimal
        case "VARCHAR", "TEXT": .string
        case "BLOB": .binary
        default: nil
        }
    }
}
