import DataModel
import StoreMigration
import StoreSchema

/// What a migration does with the stored links of one relationship that owns storage in the
/// destination: a to-one's foreign key, a many-to-many's join table (the side that names it), or a
/// to-many without inverse's hidden key in the destination table.
struct RelationshipMove {
    enum Kind {
        /// Nothing to carry: the relationship is new.
        case new
        /// The storage is carried as it is (a column copied or kept, a join table kept).
        case direct(source: Relationship, declaredBy: String)
        /// The links are read into the pair table `pairs` before any table changes, and written into
        /// the new storage after.
        case converted(pairs: String, extraction: SQL)
    }

    var relationship: Relationship
    /// The destination entity that declares it.
    var entity: String
    var kind: Kind
    /// Whether links to rows that do not survive must be removed afterwards.
    var prunes: Bool

    /// Whether `relationship` owns storage in `model`: a to-one, a to-many without inverse, or the
    /// side of a many-to-many that names its join table.
    static func ownsStorage(_ relationship: Relationship, of entity: String, in schema: StoreSchema, model: Model) -> Bool {
        guard relationship.isPersistent else { return false }
        if relationship.isToOne { return true }
        guard let inverse = model.inverse(of: relationship) else { return true }
        guard inverse.isToMany else { return false }
        return schema.joinTables.contains { $0.relationship == RelationshipReference(entity: entity, relationship: relationship.name) }
    }

    static func plan(for planner: MigrationPlanner) -> [RelationshipReference: RelationshipMove] {
        var moves: [RelationshipReference: RelationshipMove] = [:]
        let model = planner.destinationModel
        var pairTables = 0
        for entity in model.entities {
            for relationship in entity.relationships
            where ownsStorage(relationship, of: entity.name, in: planner.destination, model: model) {
                let reference = RelationshipReference(entity: entity.name, relationship: relationship.name)
                moves[reference] = move(relationship, of: entity, planner: planner, pairTables: &pairTables)
            }
        }
        return moves
    }

    private static func move(_ relationship: Relationship, of entity: Entity, planner: MigrationPlanner, pairTables: inout Int) -> RelationshipMove {
        let mapping = planner.mapping
        let sourceModel = planner.sourceModel
        var move = RelationshipMove(relationship: relationship, entity: entity.name, kind: .new, prunes: false)
        let inverse = planner.destinationModel.inverse(of: relationship)
        let inverseEntity = inverse.flatMap { planner.destinationModel.declaringEntityName(ofProperty: $0.name, inEntityNamed: relationship.destinationEntityName) }

        // The source relationship this one comes from, or its inverse's, read the other way round.
        var origin: (relationship: Relationship, entity: String, flipped: Bool)?
        if case .relationship(let old)? = mapping.sourceProperty(of: relationship.name, in: entity.name), old.isPersistent,
           let sourceEntity = mapping.sourceEntities[entity.name],
           let declaring = sourceModel.declaringEntityName(ofProperty: old.name, inEntityNamed: sourceEntity)
        {
            origin = (old, declaring, false)
        } else if let inverse, let inverseEntity,
                  case .relationship(let old)? = mapping.sourceProperty(of: inverse.name, in: inverseEntity), old.isPersistent,
                  let sourceEntity = mapping.sourceEntities[inverseEntity],
                  let declaring = sourceModel.declaringEntityName(ofProperty: old.name, inEntityNamed: sourceEntity)
        {
            origin = (old, declaring, true)
        }
        guard let origin else { return move }
        let sourceEnd = origin.flipped ? origin.relationship.destinationEntityName : origin.entity
        let destinationEnd = origin.flipped ? origin.entity : origin.relationship.destinationEntityName
        move.prunes = planner.losesRows(from: destinationEnd, into: relationship.destinationEntityName)
            || (relationship.isToMany && planner.losesRows(from: sourceEnd, into: entity.name))
        if !origin.flipped, isDirect(relationship, of: entity, from: origin.relationship, declaredBy: origin.entity, planner: planner) {
            move.kind = .direct(source: origin.relationship, declaredBy: origin.entity)
            return move
        }
        pairTables += 1
        let pairs = "Z_MIGRATION_PAIRS\(pairTables)"
        guard let select = pairSelection(of: origin.relationship, declaredBy: origin.entity, flipped: origin.flipped, planner: planner)
        else { return move }
        move.kind = .converted(pairs: pairs, extraction: "INSERT INTO \(planner.temporaryTable(pairs)) (s, d, os, od) \(select);")
        return move
    }

    /// Whether the destination keeps the source's storage as it is: the same kind of storage, in the
    /// same place.
    private static func isDirect(
        _ relationship: Relationship, of entity: Entity, from old: Relationship, declaredBy oldEntity: String, planner: MigrationPlanner
    ) -> Bool {
        let model = planner.destinationModel
        let sourceModel = planner.sourceModel
        guard old.isToMany == relationship.isToMany else { return false }
        let oldInverse = sourceModel.inverse(of: old)
        let newInverse = model.inverse(of: relationship)
        if relationship.isToOne {
            // Every entity that inherits the relationship must read it from the same column.
            let sourceTable = planner.source.table(forEntityNamed: oldEntity)?.name
            for name in [entity.name] + model.descendants(of: entity).map(\.name) {
                guard let sourceEntity = planner.mapping.sourceEntities[name] else { continue }
                guard case .relationship(let mapped)? = planner.mapping.sourceProperty(of: relationship.name, in: name),
                      mapped.name == old.name,
                      sourceModel.declaringEntityName(ofProperty: old.name, inEntityNamed: sourceEntity) == oldEntity,
                      planner.source.table(forEntityNamed: sourceEntity)?.name == sourceTable
                else { return false }
            }
            return true
        }
        guard let newInverse else {
            return oldInverse == nil
        }
        guard let oldInverse, oldInverse.isToMany, newInverse.isToMany,
              oldInverse.isOrdered == newInverse.isOrdered, old.isOrdered == relationship.isOrdered
        else { return false }
        return planner.source.joinTable(forRelationship: old.name, ofEntity: oldEntity) != nil
    }

    /// `SELECT s, d, os, od …` reading the links of `old` (declared by `entity` in the source) from the
    /// store as it is: `s` rows of the destination relationship's entity, `d` rows of its
    /// destination, `os` the position of `d` among `s`'s links, `od` the position of
    /// `s` among `d`'s. `flipped` reads the inverse's links the other way round.
    static func pairSelection(
        of old: Relationship, declaredBy entity: String, flipped: Bool, planner: MigrationPlanner
    ) -> SQL? {
        let schema = planner.source
        guard let ownTable = schema.table(forEntityNamed: entity)?.name,
              let targetTable = schema.table(forEntityNamed: old.destinationEntityName)?.name
        else { return nil }
        // Columns in `old`'s orientation: own row, target row, target's position, own position.
        let columns: (own: SQL, target: SQL, targetOrder: SQL, ownOrder: SQL)
        let from: SQL
        let oldInverse = planner.sourceModel.inverse(of: old)
        let inverseEntity = oldInverse.flatMap { planner.sourceModel.declaringEntityName(ofProperty: $0.name, inEntityNamed: old.destinationEntityName) }
        if old.isToOne {
            guard let key = MigrationPlanner.column(.foreignKey(entity: entity, relationship: old.name), in: schema, table: ownTable) else { return nil }
            let order = MigrationPlanner.column(.orderKey(entity: entity, relationship: old.name), in: schema, table: ownTable)
            columns = ("x.\(.Z_PK)", "x.\(name: key.name)", "NULL", order.map { "x.\(name: $0.name)" as SQL } ?? "NULL")
            from = "FROM \(name: ownTable) AS x WHERE x.\(name: key.name) IS NOT NULL"
        } else if let oldInverse, let inverseEntity, oldInverse.isToOne {
            guard let key = MigrationPlanner.column(.foreignKey(entity: inverseEntity, relationship: oldInverse.name), in: schema, table: targetTable)
            else { return nil }
            let order = MigrationPlanner.column(.orderKey(entity: inverseEntity, relationship: oldInverse.name), in: schema, table: targetTable)
            columns = ("x.\(name: key.name)", "x.\(.Z_PK)", order.map { "x.\(name: $0.name)" as SQL } ?? "NULL", "NULL")
            from = "FROM \(name: targetTable) AS x WHERE x.\(name: key.name) IS NOT NULL"
        } else if oldInverse != nil {
            guard let join = schema.joinTable(forRelationship: old.name, ofEntity: entity) else { return nil }
            let named = join.relationship == RelationshipReference(entity: entity, relationship: old.name)
            let own = named ? join.sourceColumn : join.destinationColumn
            let target = named ? join.destinationColumn : join.sourceColumn
            let targetOrder = named ? join.destinationOrderColumn : join.sourceOrderColumn
            let ownOrder = named ? join.sourceOrderColumn : join.destinationOrderColumn
            columns = ("x.\(name: own)", "x.\(name: target)",
                       targetOrder.map { "x.\(name: $0)" as SQL } ?? "NULL", ownOrder.map { "x.\(name: $0)" as SQL } ?? "NULL")
            from = "FROM \(name: join.name) AS x"
        } else {
            guard let key = MigrationPlanner.column(.inverselessToMany(entity: entity, relationship: old.name), in: schema, table: targetTable)
            else { return nil }
            columns = ("x.\(name: key.name)", "x.\(.Z_PK)", "NULL", "NULL")
            from = "FROM \(name: targetTable) AS x WHERE x.\(name: key.name) IS NOT NULL"
        }
        let ordered = flipped
            ? [columns.target, columns.own, columns.ownOrder, columns.targetOrder]
            : [columns.own, columns.target, columns.targetOrder, columns.ownOrder]
        return "SELECT \(ordered[0]) AS s, \(ordered[1]) AS d, \(ordered[2]) AS os, \(ordered[3]) AS od \(from)"
    }
}
