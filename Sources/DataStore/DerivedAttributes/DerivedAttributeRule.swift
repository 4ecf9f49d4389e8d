import DataModel

/// What one derived attribute's value is computed from, in the store's tables and columns: how a
/// server store keeps the value current as a save writes (a SQLite store's triggers do it there).
struct DerivedAttributeRule: Sendable {
    /// The entity declaring the attribute: the rule covers its rows and its subentities'.
    let entity: EntityDescription
    let attribute: AttributeDescription
    /// The attribute's column in `entity.tableName`.
    let column: String
    let source: Source

    enum Source: Sendable {
        /// `now()`: the time of the row's last save.
        case now
        /// An attribute of the row itself, transformed by `text` when there is one.
        case ownAttribute(AttributeDescription, column: String, text: DerivationExpression.TextDerivation?)
        /// An attribute of the destination of a to-one relationship kept in `foreignKey`.
        case destinationAttribute(
            relationship: String, foreignKey: String, destination: EntityDescription, attribute: AttributeDescription, column: String,
            text: DerivationExpression.TextDerivation?)
        /// The number of destinations of a to-many relationship, or the sum of `summed` (kept in
        /// `summedColumn` of the destination's table) over them.
        case aggregate(RelationshipDescription, destination: EntityDescription, summed: AttributeDescription?, summedColumn: String?)
    }

    /// The rules of every derived attribute the store can keep current, one per attribute, on the
    /// entity declaring it. Expressions the model validator reports as never computed have none.
    static func rules(of entities: [EntityDescription], in model: Model) -> [DerivedAttributeRule] {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return entities.flatMap { entity in
            entity.attributes.compactMap { attribute -> DerivedAttributeRule? in
                guard attribute.isDerived, attribute.entityName == entity.name,
                      let declaring = model.entity(named: entity.name),
                      let declared = declaring.attributes.first(where: { $0.name == attribute.name }),
                      case .success(let derivation) = model.derivation(of: declared, in: declaring),
                      let column = entity.column(of: attribute),
                      let source = Source(derivation, of: entity, byName)
                else { return nil }
                return DerivedAttributeRule(entity: entity, attribute: attribute, column: column, source: source)
            }
        }
    }
}

extension DerivedAttributeRule.Source {
    /// The source of `derivation` on `entity`'s rows; `nil` when a name it uses has no column.
    fileprivate init?(_ derivation: Derivation, of entity: EntityDescription, _ entities: [String: EntityDescription]) {
        switch derivation {
        case .now:
            self = .now
        case .text(let text, let source):
            self.init(source, text: text, of: entity, entities)
        case .value(let source):
            self.init(source, text: nil, of: entity, entities)
        case .count(let relationship, _):
            guard let found = entity.relationship(named: relationship.name), let destination = entities[found.destinationEntityName]
            else { return nil }
            self = .aggregate(found, destination: destination, summed: nil, summedColumn: nil)
        case .sum(let relationship, _, let summed, _):
            guard let found = entity.relationship(named: relationship.name), let destination = entities[found.destinationEntityName],
                  let summedAttribute = destination.attribute(named: summed.name), let summedColumn = destination.column(of: summedAttribute)
            else { return nil }
            self = .aggregate(found, destination: destination, summed: summedAttribute, summedColumn: summedColumn)
        }
    }

    private init?(
        _ source: DerivationSource, text: DerivationExpression.TextDerivation?, of entity: EntityDescription, _ entities: [String: EntityDescription]
    ) {
        guard let relationship = source.relationship else {
            guard let attribute = entity.attribute(named: source.attribute.name), let column = entity.column(of: attribute) else { return nil }
            self = .ownAttribute(attribute, column: column, text: text)
            return
        }
        guard let found = entity.relationship(named: relationship.name), case .foreignKey(let keyColumn, _, _) = found.storage,
              let destination = entities[found.destinationEntityName], let attribute = destination.attribute(named: source.attribute.name),
              let column = destination.column(of: attribute)
        else { return nil }
        self = .destinationAttribute(
            relationship: found.name, foreignKey: entity.tableColumns[keyColumn], destination: destination, attribute: attribute, column: column,
            text: text)
    }
}

extension EntityDescription {
    /// The column of the entity's table holding `attribute`; `nil` for one without a column of its own.
    fileprivate func column(of attribute: AttributeDescription) -> String? {
        attribute.columnIndex.map { tableColumns[$0] }
    }
}
