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

    init(model: Model) {
        self.model = model
        let numbered = EntityNumbering.layouts(of: model)
        layouts = numbered.map(\.layout)
        positions = numbered.map(\.position)
        layoutByName = Dictionary(layouts.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
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
        var sortName: String
        /// The name part after `Z`, before any collision suffix.
        var baseName: String
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
        for layout in members {
            requests += attributeRequests(model.entities[positions[layout.number - 1]], layout)
            requests += foreignKeyRequests(model.entities[positions[layout.number - 1]], layout)
        }
        requests += extra

        // Names are handed out in entity-number order (then by property name), so that the first
        // entity keeps the plain name and later ones get 1, 2, … — as Core Data does.
        var taken: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
        var suffixes: [String: Int] = [:]
        var names = [[String]](repeating: [], count: requests.count)
        let namingOrder = requests.indices.sorted { left, right in
            if requests[left].entityNumber != requests[right].entityNumber {
                return requests[left].entityNumber < requests[right].entityNumber
            }
            if requests[left].sortName != requests[right].sortName { return requests[left].sortName < requests[right].sortName }
            return requests[left].kind < requests[right].kind
        }
        for index in namingOrder {
            let request = requests[index]
            var suffix = suffixes[request.baseName]
            func candidate() -> String { request.baseName + (suffix.map(String.init) ?? "") }
            while taken.contains("Z" + candidate()) { suffix = (suffix ?? 0) + 1 }
            suffixes[request.baseName] = (suffix ?? 0) + 1
            let base = candidate()
            var assigned = ["Z" + base]
            if let number = request.foreignEntityNumber { assigned.append("Z\(number)_" + base) }
            if request.needsOrderKey { assigned.append("Z_FOK_" + base) }
            taken.formUnion(assigned)
            names[index] = assigned
        }

        // Output order: group, entity number, then kind — attributes, foreign keys (each followed by its
        // `Z<n>_` companion), the entity's `Z_FOK_` order keys, inverseless to-many columns — then name.
        struct Placed {
            var group: ColumnGroup
            var entityNumber: Int
            var kind: Int
            var sortName: String
            var column: Column
        }
        var placed: [Placed] = []
        placed.reserveCapacity(requests.count + 8)
        for (request, names) in zip(requests, names) {
            let kind = request.kind * 2  // leaves room for the order keys between foreign keys and the rest
            func place(_ kind: Int, _ sortName: String, _ column: Column) {
                placed.append(Placed(group: request.group, entityNumber: request.entityNumber, kind: kind, sortName: sortName, column: column))
            }
            place(kind, request.sortName, Column(name: names[0], type: request.type, role: request.role))
            guard case .foreignKey(let entity, let relationship) = request.role else { continue }
            var companions = names.dropFirst()
            if request.foreignEntityNumber != nil, let name = companions.popFirst() {
                place(kind, request.sortName + "\u{0}", Column(name: name, type: .integer, role: .foreignEntity(entity: entity, relationship: relationship)))
            }
            if request.needsOrderKey, let name = companions.popFirst() {
                place(kind + 1, request.sortName, Column(name: name, type: .integer, role: .orderKey(entity: entity, relationship: relationship)))
            }
        }
        let outputOrder = placed.indices.sorted { left, right in
            if placed[left].group != placed[right].group { return placed[left].group < placed[right].group }
            if placed[left].entityNumber != placed[right].entityNumber {
                return placed[left].entityNumber < placed[right].entityNumber
            }
            if placed[left].kind != placed[right].kind { return placed[left].kind < placed[right].kind }
            return placed[left].sortName < placed[right].sortName
        }
        let columns = [
            Column(name: "Z_PK", type: .integer, role: .primaryKey),
            Column(name: "Z_ENT", type: .integer, role: .entityNumber),
            Column(name: "Z_OPT", type: .integer, role: .version),
        ] + outputOrder.map { placed[$0].column }
        return EntityTable(name: root.tableName, rootEntity: root.name, columns: columns)
    }

    private func attributeRequests(_ entity: Entity, _ layout: EntityLayout) -> [Request] {
        var requests: [Request] = []
        for attribute in entity.attributes where attribute.isPersistent {
            if attribute.type == .composite {
                requests += CompositeLayout.leaves(of: attribute, in: model).map { leaf in
                    Request(
                        group: ColumnGroup(leaf.type), entityNumber: layout.number, kind: 0, sortName: leaf.name,
                        baseName: leaf.name.uppercased(), type: ColumnType(leaf.type) ?? .blob,
                        role: .compositeMember(entity: entity.name, attribute: attribute.name, path: leaf.path))
                }
            } else if let type = ColumnType(attribute.type) {
                requests.append(Request(
                    group: ColumnGroup(attribute.type), entityNumber: layout.number, kind: 0,
                    sortName: attribute.name, baseName: attribute.name.uppercased(), type: type,
                    role: .attribute(entity: entity.name, attribute: attribute.name)))
            }
        }
        return requests
    }

    private func foreignKeyRequests(_ entity: Entity, _ layout: EntityLayout) -> [Request] {
        entity.relationships.filter { $0.isPersistent && $0.isToOne }.map { relationship in
            let destination = layoutByName[relationship.destinationEntityName]
            let hasSubentities = destination.map { $0.subtreeNumbers.count > 1 } ?? false
            let inverse = model.inverse(of: relationship)
            var request = Request(
                group: .integerLike, entityNumber: layout.number, kind: 1, sortName: relationship.name,
                baseName: relationship.name.uppercased(), type: .integer,
                role: .foreignKey(entity: entity.name, relationship: relationship.name),
                foreignEntityNumber: hasSubentities ? destination?.number : nil)
            request.needsOrderKey = inverse.map { $0.isToMany && $0.isOrdered } ?? false
            return request
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
                    sortName: "\(layout.number)" + relationship.name,
                    baseName: "\(layout.number)" + relationship.name.uppercased(), type: .integer,
                    role: .inverselessToMany(entity: layout.name, relationship: relationship.name)))
            }
        }
        return requests
    }

    // MARK: Join tables

    private func joinTables() -> [JoinTable] {
        var tables: [JoinTable] = []
        var seen: Set<RelationshipReference> = []
        for (layout, position) in zip(layouts, positions) {
            for relationship in model.entities[position].relationships.sorted(by: { $0.name < $1.name })
            where relationship.isPersistent && relationship.isToMany {
                guard let inverse = model.inverse(of: relationship), inverse.isToMany, inverse.isPersistent,
                      let inverseOwner = model.declaringEntityName(
                          ofProperty: inverse.name,
                          inEntityNamed: relationship.inverseEntityName ?? relationship.destinationEntityName),
                      let inverseLayout = layoutByName[inverseOwner]
                else { continue }
                let mine = RelationshipReference(entity: layout.name, relationship: relationship.name)
                let theirs = RelationshipReference(entity: inverseOwner, relationship: inverse.name)
                guard !seen.contains(mine), !seen.contains(theirs) else { continue }
                seen.formUnion([mine, theirs])
                let mineOwns = ownsJoinTable(
                    (layout.number, relationship), over: (inverseLayout.number, inverse))
                let (a, r, aName, b, s, bName) = mineOwns
                    ? (layout.number, relationship, layout.name, inverseLayout.number, inverse, inverseOwner)
                    : (inverseLayout.number, inverse, inverseOwner, layout.number, relationship, layout.name)
                let rName = r.name.uppercased()
                // A relationship that is its own inverse (`related` ↔ `related`) would name both columns
                // alike; the second takes the collision suffix, as entity columns do.
                let sName = s.name.uppercased() + (a == b && r.name == s.name ? "1" : "")
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
