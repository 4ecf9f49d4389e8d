import DataModel

/// Computes a `StoreSchema` from a model, following the rules of Core Data's SQLite store
/// (format reference §2): one table per root entity, columns grouped by type, collisions suffixed,
/// join tables for many-to-many pairs, and Core Data's index names.
struct StoreSchemaBuilder {
    let model: Model
    let layouts: [EntityLayout]
    /// For each layout, the position of its entity in `model.entities` (read in place, never copied).
    let positions: [Int]
    private let layoutByName: [String: EntityLayout]
    /// For each position in `model.entities`, its entity's number (0 for a duplicate name, never numbered).
    private let numberByPosition: [Int]

    init(model: Model) {
        self.model = model
        let numbered = EntityNumbering.layouts(of: model)
        layouts = numbered.map(\.layout)
        positions = numbered.map(\.position)
        layoutByName = Dictionary(layouts.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var numbers = [Int](repeating: 0, count: model.entities.count)
        for (layout, position) in zip(layouts, positions) { numbers[position] = layout.number }
        numberByPosition = numbers
    }

    func build() -> StoreSchema {
        let inverseless = inverselessToManyRequests()
        let tables = layouts.filter { $0.superNumber == 0 }.map { table(rootedAt: $0, extra: inverseless[$0.tableName] ?? []) }
        let joinTables = self.joinTables()
        let indexes = self.indexes(tables: tables, joinTables: joinTables)
        return StoreSchema(
            entities: layouts, tables: tables, joinTables: joinTables, indexes: indexes,
            derivedAttributes: derivedAttributeTriggers(tables: tables, joinTables: joinTables))
    }

    // MARK: Entity tables

    /// A column the table needs, before its final name is known.
    private struct Request {
        var group: ColumnGroup
        var entityNumber: Int
        /// Attributes before foreign keys before inverseless-to-many columns, within a group and entity.
        var kind: Int
        /// The name the column sorts and is named by (`Z` + it uppercased, before any collision suffix).
        var sortName: String
        var type: ColumnType
        var role: Column.Role
        /// For a foreign key: the destination's number when it has subentities (`Z<n>_<REL>`).
        var foreignEntityNumber: Int?
        /// For a foreign key: whether an ordered to-many inverse needs `Z_FOK_<REL>`.
        var needsOrderKey = false
    }

    private func table(rootedAt root: EntityLayout, extra: [Request]) -> EntityTable {
        let members = layouts[(root.number - 1)..<root.subtreeNumbers.upperBound]
        var requests: [Request] = []
        requests.reserveCapacity(32)
        for layout in members {
            attributeRequests(model.entities[positions[layout.number - 1]], layout, into: &requests)
            foreignKeyRequests(model.entities[positions[layout.number - 1]], layout, into: &requests)
        }
        requests += extra
        let names = ColumnNaming.namesWithoutCollisions(requests.map { ($0.sortName, $0.foreignEntityNumber, $0.needsOrderKey) })
            ?? namesResolvingCollisions(requests)

        // Output order: group, entity number, then kind — attributes, foreign keys (each followed by its
        // `Z<n>_` companion), the entity's `Z_FOK_` order keys, inverseless to-many columns — then name.
        struct Placed {
            /// Group, entity number and kind, most significant first.
            var key: UInt64
            var sortName: String
            var column: Column
        }
        var placed: [Placed] = []
        placed.reserveCapacity(requests.count + 8)
        for (request, names) in zip(requests, names) {
            let kind = request.kind * 2  // leaves room for the order keys between foreign keys and the rest
            let key = UInt64(request.group.rawValue) << 48 | UInt64(request.entityNumber) << 8
            placed.append(Placed(key: key | UInt64(kind), sortName: request.sortName, column: Column(name: names.column, type: request.type, role: request.role)))
            guard case .foreignKey(let entity, let relationship) = request.role else { continue }
            if let name = names.entityColumn {
                placed.append(Placed(
                    key: key | UInt64(kind), sortName: request.sortName + "\u{0}",
                    column: Column(name: name, type: .integer, role: .foreignEntity(entity: entity, relationship: relationship))))
            }
            if let name = names.orderColumn {
                placed.append(Placed(
                    key: key | UInt64(kind + 1), sortName: request.sortName,
                    column: Column(name: name, type: .integer, role: .orderKey(entity: entity, relationship: relationship))))
            }
        }
        // Sorts positions, not the (large) entries themselves.
        let order = placed.indices.sorted { placed[$0].key != placed[$1].key ? placed[$0].key < placed[$1].key : placed[$0].sortName < placed[$1].sortName }
        var columns = [
            Column(name: "Z_PK", type: .integer, role: .primaryKey),
            Column(name: "Z_ENT", type: .integer, role: .entityNumber),
            Column(name: "Z_OPT", type: .integer, role: .version),
        ]
        columns.reserveCapacity(placed.count + 3)
        for index in order { columns.append(placed[index].column) }
        return EntityTable(name: root.tableName, rootEntity: root.name, columns: columns)
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
            return requests[left].kind < requests[right].kind
        }
        for index in namingOrder {
            let request = requests[index]
            let upper = String(ColumnNaming.columnName(request.sortName).dropFirst())
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

    private func attributeRequests(_ entity: Entity, _ layout: EntityLayout, into requests: inout [Request]) {
        for attribute in entity.attributes where attribute.isPersistent {
            if attribute.type == .composite {
                requests += CompositeLayout.leaves(of: attribute, in: model).map { leaf in
                    Request(
                        group: ColumnGroup(leaf.type), entityNumber: layout.number, kind: 0, sortName: leaf.name,
                        type: ColumnType(leaf.type) ?? .blob, role: .compositeMember(entity: entity.name, attribute: attribute.name, path: leaf.path))
                }
            } else if let type = ColumnType(attribute.type) {
                requests.append(Request(
                    group: ColumnGroup(attribute.type), entityNumber: layout.number, kind: 0,
                    sortName: attribute.name, type: type,
                    role: .attribute(entity: entity.name, attribute: attribute.name)))
            }
        }
    }

    private func foreignKeyRequests(_ entity: Entity, _ layout: EntityLayout, into requests: inout [Request]) {
        for relationship in entity.relationships where relationship.isPersistent && relationship.isToOne {
            let destination = layoutByName[relationship.destinationEntityName]
            let hasSubentities = destination.map { $0.subtreeNumbers.count > 1 } ?? false
            let inverse = model.inverseLocation(of: relationship)
            var request = Request(
                group: .integerLike, entityNumber: layout.number, kind: 1, sortName: relationship.name, type: .integer,
                role: .foreignKey(entity: entity.name, relationship: relationship.name),
                foreignEntityNumber: hasSubentities ? destination?.number : nil)
            if let inverse {
                // Read in place: copying the inverse out would copy all its strings and user info.
                request.needsOrderKey = model.entities[inverse.entity].relationships[inverse.relationship].isToMany
                    && model.entities[inverse.entity].relationships[inverse.relationship].isOrdered
            }
            requests.append(request)
        }
    }

    /// A to-many relationship without inverse is stored as a hidden foreign key in its destination's
    /// table; the requests, by that table's name.
    private func inverselessToManyRequests() -> [String: [Request]] {
        var requests: [String: [Request]] = [:]
        for (layout, position) in zip(layouts, positions) {
            for relationship in model.entities[position].relationships
            where relationship.isPersistent && relationship.isToMany && relationship.inverseName == nil {
                guard let destination = layoutByName[relationship.destinationEntityName] else { continue }
                requests[destination.tableName, default: []].append(Request(
                    group: .integerLike, entityNumber: destination.number, kind: 2,
                    sortName: "\(layout.number)" + relationship.name, type: .integer,
                    role: .inverselessToMany(entity: layout.name, relationship: relationship.name)))
            }
        }
        return requests
    }

    // MARK: Join tables

    private func joinTables() -> [JoinTable] {
        var tables: [JoinTable] = []
        // Relationships already paired, as entity position << 32 | relationship index.
        var seen: Set<Int> = []
        for (layout, position) in zip(layouts, positions) {
            let relationships = model.entities[position].relationships
            for index in relationships.indices.sorted(by: { relationships[$0].name < relationships[$1].name }) {
                let relationship = relationships[index]
                guard relationship.isPersistent, relationship.isToMany,
                      let found = model.inverseLocation(of: relationship)
                else { continue }
                let inverse = model.entities[found.entity].relationships[found.relationship]
                guard inverse.isToMany, inverse.isPersistent else { continue }
                let mine = position << 32 | index, theirs = found.entity << 32 | found.relationship
                guard !seen.contains(mine), !seen.contains(theirs) else { continue }
                seen.insert(mine)
                seen.insert(theirs)
                guard numberByPosition[found.entity] > 0 else { continue }
                let inverseLayout = layouts[numberByPosition[found.entity] - 1]
                let mineOwns = ownsJoinTable(
                    (layout.number, relationship), over: (inverseLayout.number, inverse))
                let (a, r, aName, b, s, bName) = mineOwns
                    ? (layout.number, relationship, layout.name, inverseLayout.number, inverse, inverseLayout.name)
                    : (inverseLayout.number, inverse, inverseLayout.name, layout.number, relationship, layout.name)
                let rName = ColumnNaming.columnName(r.name).dropFirst()
                // A relationship that is its own inverse (`related` ↔ `related`) would name both columns
                // alike; the second takes the collision suffix, as entity columns do.
                let sName = ColumnNaming.columnName(s.name).dropFirst() + (a == b && r.name == s.name ? "1" : "")
                tables.append(JoinTable(
                    name: "Z_\(a)\(rName)",
                    relationship: RelationshipReference(entity: aName, relationship: r.name),
                    inverse: RelationshipReference(entity: bName, relationship: s.name),
                    sourceColumn: "Z_\(a)\(sName)", destinationColumn: "Z_\(b)\(rName)",
                    destinationOrderColumn: r.isOrdered ? "Z_FOK_\(b)\(rName)" : nil,
                    sourceOrderColumn: s.isOrdered ? "Z_FOK_\(a)\(sName)" : nil))
            }
        }
        return tables
    }

    /// Which side names the join table: the relationship declared on the lower entity number; on a
    /// tie (a relationship between an entity and itself) the ordered side, else the later name —
    /// the one tie seen in a real store (`favorites` over `favoriteFolders`) fits both.
    private func ownsJoinTable(_ mine: (Int, Relationship), over theirs: (Int, Relationship)) -> Bool {
        if mine.0 != theirs.0 { return mine.0 < theirs.0 }
        if mine.1.isOrdered != theirs.1.isOrdered { return mine.1.isOrdered }
        return mine.1.name > theirs.1.name
    }
}
