import DataModel
import StoreMigration
import StoreSchema

extension MigrationPlanner {
    /// The plan: checks, then the steps in the order they run.
    func plan() -> MigrationPlan {
        var builder = StepBuilder(planner: self)
        builder.build()
        return MigrationPlan(
            sourceVersion: sourceModel.versionName ?? sourceModel.path, destinationVersion: destinationModel.versionName ?? destinationModel.path,
            difference: difference,
            preconditions: preconditions().map { MigrationPlan.Precondition(change: $0.change, blockingRowsSQL: rendered($0.blockingRows)) },
            steps: builder.steps)
    }

    // MARK: Column sources

    /// Where each column of the destination `table` gets its values, for the rows from `sourceTable`.
    func columnSources(for table: EntityTable, from sourceTable: String) -> [ColumnSource] {
        let moving = movingEntities(from: sourceTable, to: table.name)
        func combine(within entity: String, _ source: ((source: EntityLayout, destination: EntityLayout)) -> ColumnSource) -> ColumnSource {
            guard let range = destinationLayouts[entity]?.subtreeNumbers else { return .empty }
            var sources: [Int: ColumnSource] = [:]
            for pair in moving where range.contains(pair.destination.number) { sources[pair.source.number] = source(pair) }
            let distinct = Set(sources.values.map { "\($0)" })
            if distinct.count <= 1 { return sources.values.first ?? .empty }
            return .perEntity(sources)
        }
        return table.columns.map { column in
            switch column.role {
            case .primaryKey:
                return .carried("Z_PK", .none)
            case .entityNumber:
                return .carried("Z_ENT", moving.allSatisfy { $0.source.number == $0.destination.number } ? .none : .renumbered)
            case .version:
                return .carried("Z_OPT", .none)
            case .attribute(let entity, let attribute):
                return combine(within: entity) { attributeSource(entity, attribute, from: $0, in: sourceTable) }
            case .compositeMember(let entity, let attribute, let path):
                return combine(within: entity) { pair in
                    guard case .attribute(let old)? = mapping.sourceProperty(of: attribute, in: pair.destination.name), old.isPersistent,
                          let declaring = sourceModel.declaringEntityName(ofProperty: old.name, inEntityNamed: pair.source.name),
                          let column = Self.column(.compositeMember(entity: declaring, attribute: old.name, path: path), in: source, table: sourceTable)
                    else { return .empty }
                    return .carried(column.name, .none)
                }
            case .foreignKey(let entity, let relationship):
                guard case .direct(let old, let declaring)? = relationships[RelationshipReference(entity: entity, relationship: relationship)]?.kind,
                      let column = Self.column(.foreignKey(entity: declaring, relationship: old.name), in: source, table: sourceTable)
                else { return .empty }
                return .carried(column.name, .none)
            case .foreignEntity(let entity, let relationship):
                guard case .direct(let old, let declaring)? = relationships[RelationshipReference(entity: entity, relationship: relationship)]?.kind,
                      let column = Self.column(.foreignEntity(entity: declaring, relationship: old.name), in: source, table: sourceTable)
                else { return .empty }
                return .carried(column.name, .renumbered)
            case .orderKey(let entity, let relationship):
                guard case .direct(let old, let declaring)? = relationships[RelationshipReference(entity: entity, relationship: relationship)]?.kind,
                      let column = Self.column(.orderKey(entity: declaring, relationship: old.name), in: source, table: sourceTable)
                else { return .empty }
                return .carried(column.name, .none)
            case .inverselessToMany(let entity, let relationship):
                guard case .direct(let old, let declaring)? = relationships[RelationshipReference(entity: entity, relationship: relationship)]?.kind,
                      let column = Self.column(.inverselessToMany(entity: declaring, relationship: old.name), in: source, table: sourceTable)
                else { return .empty }
                return .carried(column.name, .none)
            }
        }
    }

    private func attributeSource(
        _ entity: String, _ attribute: String, from pair: (source: EntityLayout, destination: EntityLayout), in sourceTable: String
    ) -> ColumnSource {
        let literal = defaults[entity]?[attribute]
        let required = !(destinationModel.entity(named: entity)?.attribute(named: attribute)?.isOptional ?? true)
        guard case .attribute(let old)? = mapping.sourceProperty(of: attribute, in: pair.destination.name), old.isPersistent,
              let column = sourceColumn(ofAttribute: old.name, entity: pair.source.name),
              snapshot.table(sourceTable, has: column.name)
        else { return literal.map(ColumnSource.literal) ?? .empty }
        let filling = required && old.isOptional ? literal : nil
        if let type = destinationModel.entity(named: entity)?.attribute(named: attribute)?.type, type != old.type {
            return .carried(column.name, .converted(from: old.type, to: type, defaulted: filling))
        }
        return .carried(column.name, filling.map(ColumnSource.Transform.defaulted) ?? .none)
    }
}
