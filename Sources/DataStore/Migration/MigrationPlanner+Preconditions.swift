import DataModel
import StoreMigration
import StoreSchema

extension MigrationPlanner {
    /// For each change the store's data must allow, a `SELECT k …` of the keys (`Z_PK`) of the
    /// source objects in its way: the migration goes ahead when it selects none.
    func preconditions() -> [(change: ModelChange, blockingRows: SQL)] {
        difference.changes.compactMap { change -> (change: ModelChange, blockingRows: SQL)? in
            guard case .inferredIfData = change.inference, let rows = blockingRows(of: change) else { return nil }
            return (change, rows)
        }
    }

    private func blockingRows(of change: ModelChange) -> SQL? {
        switch change.kind {
        case .attributeAdded, .attributeBecameStored:
            return rows(becoming: change.entity) { _ in nil }
        case .attributeBecameRequired:
            guard let property = change.property else { return nil }
            return rows(becoming: change.entity) { pair in
                guard case .attribute(let old)? = mapping.sourceProperty(of: property, in: pair.destination.name),
                      let column = sourceColumn(ofAttribute: old.name, entity: pair.source.name)
                else { return nil }
                return "\(name: column.name) IS NULL"
            }
        case .attributeTypeChanged:
            guard let property = change.property else { return nil }
            return rows(becoming: change.entity) { pair in unconvertible(property, from: pair) }
        case .becameAbstract:
            guard let old = mapping.sourceEntities[change.entity].flatMap({ sourceLayouts[$0] }) else { return nil }
            return "SELECT \(.Z_PK) AS k FROM \(name: old.tableName) WHERE \(.Z_ENT) = \(old.number)"
        case .relationshipDestinationChanged:
            return linksOutsideDestination(of: change)
        case .relationshipBecameToOne:
            guard let links = sourceLinks(of: change) else { return nil }
            return "SELECT p.s AS k FROM (\(links.pairs)) AS p GROUP BY p.s HAVING count(*) > 1"
        case .constraintsChanged:
            return duplicates(of: change.entity)
        default:
            return nil
        }
    }

    /// The source rows that become rows of `entity` or its subentities and match `condition` (per
    /// source entity; `nil` means every row).
    private func rows(becoming entity: String, where condition: ((source: EntityLayout, destination: EntityLayout)) -> SQL?) -> SQL? {
        let selects = sourcePairs(becoming: entity).map { pair -> SQL in
            let filter = condition(pair).map { " AND \($0)" } ?? SQL()
            return "SELECT \(.Z_PK) AS k FROM \(name: pair.source.tableName) WHERE \(.Z_ENT) = \(pair.source.number)\(filter)"
        }
        return selects.isEmpty ? nil : selects.joined(separator: " UNION ALL ")
    }

    /// Whether a row's value of `property` is one its new type cannot hold.
    private func unconvertible(_ property: String, from pair: (source: EntityLayout, destination: EntityLayout)) -> SQL {
        guard case .attribute(let old)? = mapping.sourceProperty(of: property, in: pair.destination.name),
              let new = destinationModel.entity(named: pair.destination.name)?.attribute(named: property),
              let bounds = TypeConversion(from: old, to: new).destinationBounds,
              let column = sourceColumn(ofAttribute: old.name, entity: pair.source.name)
        else { return dialect.truth(false) }
        let value: SQL = "\(name: column.name)"
        var outside: SQL = "\(value) < \(verbatim: "\(bounds.lowest)") OR \(value) > \(verbatim: "\(bounds.highest)")"
        if bounds.wholeNumbers, old.type.isReal { outside = outside + " OR \(value) <> ROUND(\(value))" }
        return "\(value) IS NOT NULL AND (\(outside))"
    }

    /// The source entities whose rows become rows of `entity` or its subentities, with their
    /// destination layouts.
    private func sourcePairs(becoming entity: String) -> [(source: EntityLayout, destination: EntityLayout)] {
        guard let range = destinationLayouts[entity]?.subtreeNumbers else { return [] }
        return source.entities.compactMap { old in
            destinationLayout(ofSourceNumber: old.number).flatMap { range.contains($0.number) ? (old, $0) : nil }
        }
    }

    /// The stored links of the source relationship a changed relationship comes from: `SELECT s, d …`
    /// of its owners and their destinations, and the source table of its destination.
    private func sourceLinks(of change: ModelChange) -> (pairs: SQL, destinationTable: String)? {
        guard let property = change.property, let sourceEntity = mapping.sourceEntities[change.entity],
              case .relationship(let old)? = mapping.sourceProperty(of: property, in: change.entity),
              let declaring = sourceModel.declaringEntityName(ofProperty: old.name, inEntityNamed: sourceEntity),
              let pairs = RelationshipMove.pairSelection(of: old, declaredBy: declaring, flipped: false, planner: self),
              let destinationTable = source.table(forEntityNamed: old.destinationEntityName)?.name
        else { return nil }
        return (pairs, destinationTable)
    }

    /// The owners of links to objects that do not become objects of the relationship's new
    /// destination (a subentity of the old one).
    private func linksOutsideDestination(of change: ModelChange) -> SQL? {
        guard let property = change.property, let links = sourceLinks(of: change),
              let relationship = destinationModel.entity(named: change.entity)?.relationship(named: property)
        else { return nil }
        let allowed = sourcePairs(becoming: relationship.destinationEntityName).map(\.source)
        let outside: SQL = allowed.isEmpty ? dialect.truth(true) : "NOT (\(entityFilter("t.", allowed)))"
        return "SELECT DISTINCT p.s AS k FROM (\(links.pairs)) AS p JOIN \(name: links.destinationTable) AS t ON t.\(.Z_PK) = p.d WHERE \(outside)"
    }

    /// The objects of `entity` (and its subentities) whose values of a uniqueness constraint the
    /// destination adds equal another's. As in a unique index, a missing value equals nothing.
    private func duplicates(of entity: String) -> SQL? {
        guard let new = destinationModel.entity(named: entity), let old = mapping.sourceEntity(of: entity) else { return nil }
        let existing = Set(old.uniquenessConstraints.map { $0.properties.map { mapping.destinationName(ofSourceProperty: $0.name, in: entity) ?? "" } })
        let added = new.uniquenessConstraints.map { $0.properties.map(\.name) }.filter { !existing.contains($0) }
        let pairs = sourcePairs(becoming: entity)
        guard !added.isEmpty, !pairs.isEmpty else { return nil }
        var checks: [SQL] = []
        for properties in added {
            var selects: [SQL] = []
            for pair in pairs {
                var values: [SQL] = []
                for (position, property) in properties.enumerated() {
                    guard let value = constrainedValue(property, of: entity, from: pair) else { return nil }
                    values.append("\(value) AS v\(position)")
                }
                selects.append("SELECT \(.Z_PK) AS k, \(values.joined(separator: ", ")) FROM \(name: pair.source.tableName) WHERE \(.Z_ENT) = \(pair.source.number)")
            }
            let rows = selects.joined(separator: " UNION ALL ")
            let columns = properties.indices.map { "v\($0)" as SQL }.joined(separator: ", ")
            let matching = properties.indices.map { "d.v\($0) = r.v\($0)" as SQL }.joined(separator: " AND ")
            checks.append("SELECT r.k FROM (\(rows)) AS r JOIN (SELECT \(columns) FROM (\(rows)) AS u GROUP BY \(columns) HAVING count(*) > 1) AS d ON \(matching)")
        }
        return checks.joined(separator: " UNION ")
    }

    /// What the constrained `property` of `entity` holds for the rows of one source entity: its
    /// source column, or the default a new attribute gets (`NULL` without one).
    private func constrainedValue(_ property: String, of entity: String, from pair: (source: EntityLayout, destination: EntityLayout)) -> SQL? {
        switch mapping.sourceProperty(of: property, in: pair.destination.name) {
        case .attribute(let old)? where old.isPersistent:
            return sourceColumn(ofAttribute: old.name, entity: pair.source.name).map { "\(name: $0.name)" }
        case .relationship(let old)? where old.isToOne:
            guard let declaring = sourceModel.declaringEntityName(ofProperty: old.name, inEntityNamed: pair.source.name) else { return nil }
            return Self.column(.foreignKey(entity: declaring, relationship: old.name), in: source, table: pair.source.tableName).map { "\(name: $0.name)" }
        case nil:
            return defaults[entity]?[property] ?? "NULL"
        default:
            return nil
        }
    }
}
