import DataModel

/// Computes a `StoreSchema` from a model, following the rules of Core Data's SQLite store
/// (format reference §2): one table per root entity, columns grouped by type, collisions suffixed,
/// join tables for many-to-many pairs, and Core Data's index names.
///
/// Entities, attributes and relationships are read in place by position — never copied out of the
/// model, as each copy would retain every string and array they hold.
struct StoreSchemaBuilder {
    let model: Model
    let framework: FrameworkVersion
    let layouts: [EntityLayout]
    /// For each layout, the position of its entity in `model.entities`.
    let positions: [Int]
    /// For each position in `model.entities`, its entity's number (0 for a duplicate name, never numbered).
    private let numberByPosition: [Int]

    init(model: Model, framework: FrameworkVersion) {
        self.model = model
        self.framework = framework
        let numbered = EntityNumbering.layouts(of: model)
        layouts = numbered.map(\.layout)
        positions = numbered.map(\.position)
        var numbers = [Int](repeating: 0, count: model.entities.count)
        for (layout, position) in zip(layouts, positions) { numbers[position] = layout.number }
        numberByPosition = numbers
    }

    func build() -> StoreSchema {
        let inverseless = inverselessToManyRequests()
        var tables: [EntityTable] = []
        var collected = Collected()
        for root in layouts where root.superNumber == 0 {
            tables.append(table(rootedAt: root, extra: inverseless[root.number] ?? [], collecting: &collected))
        }
        let joinTables = self.joinTables()
        let indexes = self.indexes(tableIndexes: collected.tableIndexes, joinTables: joinTables, declaredIndexes: collected.declaredIndexes)
        return StoreSchema(
            entities: layouts, tables: tables, joinTables: joinTables, indexes: indexes,
            derivedAttributes: derivedAttributeTriggers(
                tables: tables, joinTables: joinTables, entityNumbers: collected.entitiesWithDerivedAttributes))
    }

    /// What building the tables finds for the later steps, so they need not read every property again.
    private struct Collected {
        /// The indexes of the tables' foreign keys (and inverseless to-many keys) and `Z_ENT`, table by table.
        var tableIndexes: [StoreIndex] = []
        /// The indexes the entities declare, in entity-number order.
        var declaredIndexes: [StoreIndex] = []
        /// The numbers of the entities with persistent derived attributes, in order.
        var entitiesWithDerivedAttributes: [Int] = []
    }

    /// The number of the entity named `name`, if the model has it.
    func entityNumber(named name: String) -> Int? {
        model.position(ofEntityNamed: name).map { numberByPosition[$0] }.flatMap { $0 > 0 ? $0 : nil }
    }

    // MARK: Entity tables

    /// A column the table needs, before its final name is known.
    struct Request {
        /// Group, entity number and kind (attributes before foreign keys before inverseless to-many
        /// columns), most significant first; doubled, leaving the odd values to `Z_FOK_` order keys.
        var key: UInt64
        var entityNumber: Int
        /// The name of the property the column stores, which orders columns and hands out names.
        var sortName: String
        /// A composite's leaf: its name, which names the column in place of `sortName`, and its
        /// place among the composite's leaves, which orders them.
        var member: (name: String, index: Int)?
        /// The column's name before `Z`, uppercasing and any collision suffix.
        var nameBase: String { member?.name ?? sortName }
        var type: ColumnType
        var role: Column.Role
        /// For a foreign key: the destination's number when it has subentities (`Z<n>_<REL>`).
        var foreignEntityNumber: Int?
        /// Whether the column is a key Core Data indexes: a foreign key (kind 1) or an inverseless
        /// to-many's (kind 2).
        var isKey: Bool { kind == 1 || kind == 2 }
        /// Attributes 0, foreign keys 1, inverseless to-many columns 2 (kept doubled in `key`).
        var kind: UInt64 { (key & 0xFF) / 2 }
        /// For a foreign key: whether an ordered to-many inverse needs `Z_FOK_<REL>`.
        var needsOrderKey = false
        /// For a foreign key with an ordered to-many inverse: the number of the inverse's entity.
        var inverseEntityNumber = 0
        /// Whether an index may name the column: a plain attribute or a to-one relationship.
        var isIndexable = false

        /// The sort key of an order key placed after every integer-like column of its table, among
        /// the others by the number of the entity declaring the ordered to-many.
        static func afterIntegers(entityNumber: Int) -> UInt64 {
            UInt64(ColumnGroup.integerLike.rawValue) << 48 | 1 << 47 | UInt64(entityNumber) << 8 | 1
        }

        init(
            group: ColumnGroup, entityNumber: Int, kind: Int, sortName: String, type: ColumnType, role: Column.Role,
            isIndexable: Bool = false
        ) {
            key = UInt64(group.rawValue) << 48 | UInt64(entityNumber) << 8 | UInt64(kind * 2)
            self.entityNumber = entityNumber
            self.sortName = sortName
            self.type = type
            self.role = role
            self.isIndexable = isIndexable
        }
    }

    /// The table of `root`'s hierarchy.
    private func table(rootedAt root: EntityLayout, extra: [Request], collecting collected: inout Collected) -> EntityTable {
        let members = (root.number - 1)..<root.subtreeNumbers.upperBound
        var requests: [Request] = []
        requests.reserveCapacity(32)
        for member in members {
            if appendAttributeRequests(position: positions[member], number: member + 1, into: &requests) {
                collected.entitiesWithDerivedAttributes.append(member + 1)
            }
            appendForeignKeyRequests(position: positions[member], number: member + 1, into: &requests)
        }
        requests += extra
        let names = ColumnNaming.namesWithoutCollisions(requests) ?? namesResolvingCollisions(requests)

        // Output order: group, entity number, then kind — attributes, foreign keys (each followed by its
        // `Z<n>_` companion), the entity's `Z_FOK_` order keys, inverseless to-many columns — then name.
        // Sorts small entries that point at their request; names are compared only between equal keys.
        struct Placed {
            var key: UInt64
            var request: Int
            /// 0: the request's own column, 1: its `Z<n>_` companion, 2: its `Z_FOK_` companion.
            var companion: UInt8
        }
        var placed: [Placed] = []
        placed.reserveCapacity(requests.count + 8)
        let keysFollowIntegers = framework.placesOrderKeysAfterIntegers
        for index in requests.indices {
            let key = requests[index].key
            placed.append(Placed(key: key, request: index, companion: 0))
            if names[index].entityColumn != nil { placed.append(Placed(key: key, request: index, companion: 1)) }
            if names[index].orderColumn != nil {
                // Older releases put every order key after the table's last integer column.
                let orderKey = keysFollowIntegers ? Request.afterIntegers(entityNumber: requests[index].inverseEntityNumber) : key | 1
                placed.append(Placed(key: orderKey, request: index, companion: 2))
            }
        }
        placed.sort { left, right in
            if left.key != right.key { return left.key < right.key }
            if left.request != right.request {
                let (leftName, rightName) = (requests[left.request].sortName, requests[right.request].sortName)
                if leftName == rightName, let leftMember = requests[left.request].member, let rightMember = requests[right.request].member {
                    return leftMember.index < rightMember.index
                }
                return keysFollowIntegers && left.companion == 2 ? leftName > rightName : leftName < rightName
            }
            return left.companion < right.companion
        }
        var columns = [
            Column(name: "Z_PK", type: .integer, role: .primaryKey),
            Column(name: "Z_ENT", type: .integer, role: .entityNumber),
            Column(name: "Z_OPT", type: .integer, role: .version),
        ]
        columns.reserveCapacity(placed.count + 3)
        for entry in placed {
            let index = entry.request
            switch entry.companion {
            case 0:
                columns.append(Column(name: names[index].column, type: requests[index].type, role: requests[index].role))
                if requests[index].isKey { collected.tableIndexes.append(.keyIndex(table: root.tableName, column: names[index].column)) }
            default:
                guard case .foreignKey(let entity, let relationship) = requests[index].role else { continue }
                columns.append(entry.companion == 1
                    ? Column(name: names[index].entityColumn ?? "", type: .integer, role: .foreignEntity(entity: entity, relationship: relationship))
                    : Column(name: names[index].orderColumn ?? "", type: .integer, role: .orderKey(entity: entity, relationship: relationship)))
            }
        }
        if root.subtreeNumbers.count > 1 { collected.tableIndexes.append(.keyIndex(table: root.tableName, column: "Z_ENT")) }
        let table = EntityTable(name: root.tableName, rootEntity: root.name, columns: columns)
        for member in members {
            appendDeclaredIndexes(number: member + 1, in: table, requests: requests, names: names, to: &collected.declaredIndexes)
        }
        return table
    }

    /// The names of each request's columns when some names collide: handed out in entity-number order
    /// (then by property name), so that the first entity keeps the plain name and later ones get 1,
    /// 2, … — as Core Data does.
    private func namesResolvingCollisions(_ requests: [Request]) -> [ColumnNaming.Names] {
        var taken: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
        var suffixes: [String: Int] = [:]
        var names = [ColumnNaming.Names](repeating: .init(column: ""), count: requests.count)
        let namingOrder = requests.indices.sorted { left, right in
            if requests[left].entityNumber != requests[right].entityNumber {
                return requests[left].entityNumber < requests[right].entityNumber
            }
            if requests[left].sortName != requests[right].sortName { return requests[left].sortName < requests[right].sortName }
            if requests[left].member?.index != requests[right].member?.index {
                return (requests[left].member?.index ?? -1) < (requests[right].member?.index ?? -1)
            }
            return requests[left].key < requests[right].key
        }
        for index in namingOrder {
            let request = requests[index]
            let upper = String(ColumnNaming.columnName(request.nameBase).dropFirst())
            var suffix = suffixes[upper]
            func candidate() -> String { upper + (suffix.map(String.init) ?? "") }
            while taken.contains("Z" + candidate()) { suffix = (suffix ?? 0) + 1 }
            suffixes[upper] = (suffix ?? 0) + 1
            let base = candidate()
            var assigned = ColumnNaming.Names(column: "Z" + base)
            if let number = request.foreignEntityNumber { assigned.entityColumn = "Z\(number)_" + base }
            if request.needsOrderKey { assigned.orderColumn = "Z_FOK_" + base }
            taken.formUnion([assigned.column, assigned.entityColumn, assigned.orderColumn].compactMap { $0 })
            names[index] = assigned
        }
        return names
    }

    /// Appends the requests of the entity's attributes; whether any of them is derived.
    private func appendAttributeRequests(position: Int, number: Int, into requests: inout [Request]) -> Bool {
        let entityName = model.entities[position].name
        let attributes = model.entities[position].attributes
        var hasDerived = false
        for index in attributes.indices where !attributes[index].isTransient {
            hasDerived = hasDerived || attributes[index].isDerived
            let attributeType = attributes[index].type
            if attributeType == .composite {
                for (position, leaf) in CompositeLayout.leaves(of: attributes[index], in: model).enumerated() {
                    var request = Request(
                        group: ColumnGroup(leaf.type), entityNumber: number, kind: 0, sortName: attributes[index].name,
                        type: ColumnType(leaf.type) ?? .blob,
                        role: .compositeMember(entity: entityName, attribute: attributes[index].name, path: leaf.path))
                    request.member = (leaf.name, position)
                    requests.append(request)
                }
            } else if let type = ColumnType(attributeType) {
                let name = attributes[index].name
                requests.append(Request(
                    group: ColumnGroup(attributeType), entityNumber: number, kind: 0, sortName: name, type: type,
                    role: .attribute(entity: entityName, attribute: name), isIndexable: true))
            }
        }
        return hasDerived
    }

    private func appendForeignKeyRequests(position: Int, number: Int, into requests: inout [Request]) {
        let entityName = model.entities[position].name
        let relationships = model.entities[position].relationships
        for index in relationships.indices where !relationships[index].isTransient && !relationships[index].isToMany {
            let name = relationships[index].name
            var request = Request(
                group: .integerLike, entityNumber: number, kind: 1, sortName: name, type: .integer,
                role: .foreignKey(entity: entityName, relationship: name))
            if let destination = self.entityNumber(named: relationships[index].destinationEntityName),
               layouts[destination - 1].subtreeNumbers.count > 1
            {
                request.foreignEntityNumber = destination
            }
            if let inverse = model.inverseLocation(of: relationships[index]) {
                request.needsOrderKey = model.entities[inverse.entity].relationships[inverse.relationship].isToMany
                    && model.entities[inverse.entity].relationships[inverse.relationship].isOrdered
                request.inverseEntityNumber = numberByPosition[inverse.entity]
            }
            request.isIndexable = true
            requests.append(request)
        }
    }

    /// A to-many relationship without inverse is stored as a hidden foreign key in its destination's
    /// table; the requests, by the number of that table's root entity.
    private func inverselessToManyRequests() -> [Int: [Request]] {
        var requests: [Int: [Request]] = [:]
        for (layout, position) in zip(layouts, positions) {
            let relationships = model.entities[position].relationships
            for index in relationships.indices
            where !relationships[index].isTransient && relationships[index].isToMany && model.inverseLocation(of: relationships[index]) == nil {
                guard let destination = self.entityNumber(named: relationships[index].destinationEntityName) else { continue }
                requests[rootNumber(of: destination), default: []].append(Request(
                    group: .integerLike, entityNumber: destination, kind: 2,
                    sortName: "\(layout.number)" + relationships[index].name, type: .integer,
                    role: .inverselessToMany(entity: layout.name, relationship: relationships[index].name)))
            }
        }
        return requests
    }

    /// The number of the root of `number`'s hierarchy.
    private func rootNumber(of number: Int) -> Int {
        var current = number
        var steps = 0
        while layouts[current - 1].superNumber > 0, steps < layouts.count {
            current = layouts[current - 1].superNumber
            steps += 1
        }
        return current
    }

    // MARK: Join tables

    private func joinTables() -> [JoinTable] {
        var tables: [JoinTable] = []
        // Relationships already paired, by the position of the first of their entity's
        // relationships among all of them, plus their index.
        var firstRelationship: [Int] = []
        firstRelationship.reserveCapacity(model.entities.count)
        var relationshipCount = 0
        for entity in model.entities.indices {
            firstRelationship.append(relationshipCount)
            relationshipCount += model.entities[entity].relationships.count
        }
        var seen = [Bool](repeating: false, count: relationshipCount)
        for (layout, position) in zip(layouts, positions) {
            let relationships = model.entities[position].relationships
            var order = Array(relationships.indices)
            if order.count > 1 { order.sort { relationships[$0].name < relationships[$1].name } }
            for index in order {
                guard !relationships[index].isTransient, relationships[index].isToMany,
                      let found = model.inverseLocation(of: relationships[index])
                else { continue }
                let inverseRelationships = model.entities[found.entity].relationships
                guard inverseRelationships[found.relationship].isToMany, !inverseRelationships[found.relationship].isTransient
                else { continue }
                let mine = firstRelationship[position] + index, theirs = firstRelationship[found.entity] + found.relationship
                guard !seen[mine], !seen[theirs] else { continue }
                seen[mine] = true
                seen[theirs] = true
                guard numberByPosition[found.entity] > 0 else { continue }
                let relationship = JoinSide(
                    number: layout.number, entity: layout.name, name: relationships[index].name,
                    isOrdered: relationships[index].isOrdered)
                let inverse = JoinSide(
                    number: numberByPosition[found.entity], entity: layouts[numberByPosition[found.entity] - 1].name,
                    name: inverseRelationships[found.relationship].name,
                    isOrdered: inverseRelationships[found.relationship].isOrdered)
                tables.append(relationship.ownsJoinTable(over: inverse)
                    ? JoinTable(relationship, inverse) : JoinTable(inverse, relationship))
            }
        }
        return Self.suffixingRepeatedColumns(of: tables)
    }

    /// The join tables with each column name that another join table already uses taking the
    /// collision suffix (`Z_2ARTISTS` → `Z_2ARTISTS1`), as Core Data names them — seen when two
    /// entities have a many-to-many of one name to the same entity. Names are handed out in the order
    /// of the owning entity's name, then the relationship's: the only order that fits both stores
    /// that show it (framework 419's `Z_2SHOWSFEATURINGARTIST`, and 1145's `Z_15USERS (…, Z_23USERS1)`
    /// beside `Z_19USERS (…, Z_23USERS)`, where `Reaction`, numbered 19, comes before `SystemMessage`, 15).
    private static func suffixingRepeatedColumns(of tables: [JoinTable]) -> [JoinTable] {
        guard tables.count > 1 else { return tables }
        var counts: [String: Int] = [:]
        for table in tables { for column in [table.sourceColumn, table.destinationColumn] { counts[column, default: 0] += 1 } }
        guard counts.values.contains(where: { $0 > 1 }) else { return tables }
        var tables = tables
        var taken: Set<String> = []
        func unique(_ name: String) -> String {
            var suffix = 0
            var candidate = name
            while taken.contains(candidate) {
                suffix += 1
                candidate = name + String(suffix)
            }
            taken.insert(candidate)
            return candidate
        }
        let namingOrder = tables.indices.sorted {
            (tables[$0].relationship.entity, tables[$0].relationship.relationship) < (tables[$1].relationship.entity, tables[$1].relationship.relationship)
        }
        for index in namingOrder {
            let source = unique(tables[index].sourceColumn), destination = unique(tables[index].destinationColumn)
            if source != tables[index].sourceColumn {
                tables[index].sourceOrderColumn = tables[index].sourceOrderColumn.map { _ in "Z_FOK_" + source.dropFirst(2) }
                tables[index].sourceColumn = source
            }
            if destination != tables[index].destinationColumn {
                tables[index].destinationOrderColumn = tables[index].destinationOrderColumn.map { _ in "Z_FOK_" + destination.dropFirst(2) }
                tables[index].destinationColumn = destination
            }
        }
        return tables
    }
}

/// One side of a many-to-many pair: a relationship and the number of the entity declaring it.
struct JoinSide {
    var number: Int
    var entity: String
    var name: String
    var isOrdered: Bool

    /// Whether this side names the join table: the relationship declared on the lower entity
    /// number; on a tie (a relationship between an entity and itself) the ordered side, else the
    /// earlier name — as real stores show (`favorites`, ordered, over `favoriteFolders`;
    /// `ignoredByClients` over `ignoredClients` and `trustedByClients` over `trustedClients`).
    func ownsJoinTable(over other: JoinSide) -> Bool {
        if number != other.number { return number < other.number }
        if isOrdered != other.isOrdered { return isOrdered }
        return name < other.name
    }
}

extension JoinTable {
    /// The table of the pair whose relationship `r` (declared on entity `a`) names it, with inverse
    /// `s` (declared on entity `b`).
    init(_ r: JoinSide, _ s: JoinSide) {
        let a = String(r.number), b = String(s.number)
        let rName = ColumnNaming.columnName(r.name).dropFirst()
        // A relationship that is its own inverse (`related` ↔ `related`) would name both columns
        // alike; the second takes the collision suffix, as entity columns do.
        let sName = ColumnNaming.columnName(s.name).dropFirst() + (r.number == s.number && r.name == s.name ? "1" : "")
        self.init(
            name: "Z_" + a + rName,
            relationship: RelationshipReference(entity: r.entity, relationship: r.name),
            inverse: RelationshipReference(entity: s.entity, relationship: s.name),
            sourceColumn: "Z_" + a + sName, destinationColumn: "Z_" + b + rName,
            destinationOrderColumn: r.isOrdered ? "Z_FOK_" + b + rName : nil,
            sourceOrderColumn: s.isOrdered ? "Z_FOK_" + a + sName : nil)
    }
}
