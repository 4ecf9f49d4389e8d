import DataModel
import StoreSchema

/// Lowers `Model` + `StoreSchema` to the runtime's entity descriptions: slots, column indexes and
/// the storage of every relationship.
struct EntityDescriptionBuilder {
    let model: Model
    let schema: StoreSchema
    let classes: [String: ManagedObject.Type]
    // Lookups by name, made once: the schema's own lookups scan its arrays.
    private let layouts: [String: EntityLayout]
    private let tables: [String: EntityTable]

    init(model: Model, schema: StoreSchema, classes: [ManagedObject.Type]) {
        self.model = model
        self.schema = schema
        self.classes = Dictionary(classes.map { ($0.entityName, $0) }, uniquingKeysWith: { first, _ in first })
        layouts = Dictionary(schema.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        tables = Dictionary(schema.tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The table holding the rows of the entity named `name`.
    private func table(forEntityNamed name: String) -> EntityTable? {
        layouts[name].flatMap { tables[$0.tableName] }
    }

    func build() -> [EntityDescription] {
        let columnIndexesByTable = tables.mapValues { table in
            Dictionary(table.columns.enumerated().map { ($1.role, $0) }, uniquingKeysWith: { first, _ in first })
        }
        return schema.entities.compactMap { layout in
            guard let entity = model.entity(named: layout.name), let table = tables[layout.tableName],
                  let columnIndexes = columnIndexesByTable[layout.tableName]
            else { return nil }
            let attributes = model.allAttributes(of: entity).enumerated().map { slot, attribute in
                describe(attribute, slot: slot, entity: entity, table: table, columnIndexes: columnIndexes)
            }
            let relationships = model.allRelationships(of: entity).enumerated().map { slot, relationship in
                describe(relationship, slot: slot, entity: entity, columnIndexes: columnIndexes)
            }
            let constraints = ([entity] + model.parentChain(of: entity)).flatMap(\.uniquenessConstraints)
                .map { $0.properties.map(\.name) }
            let rootNumber = layouts[layout.rootName]?.number ?? layout.number
            let objectClass = objectClass(for: entity)
            return EntityDescription(
                name: layout.name, number: layout.number, subtreeNumbers: layout.subtreeNumbers,
                superentityName: entity.parentName, isAbstract: layout.isAbstract, tableName: layout.tableName,
                rootNumber: rootNumber, attributes: attributes, relationships: relationships,
                uniquenessConstraints: constraints, objectClass: objectClass,
                fillsProperties: Self.storesAttributes(model.allAttributes(of: entity), in: objectClass),
                tableColumns: table.columns.map(\.name))
        }
    }

    private func objectClass(for entity: Entity) -> ManagedObject.Type {
        for candidate in [entity] + model.parentChain(of: entity) {
            if let type = classes[candidate.name] { return type }
        }
        return ManagedObject.self
    }

    /// Whether `objectClass` has a stored property for each of `attributes`: the class's entity in
    /// the model it was generated from has the same attributes, by name and type, in the same order.
    static func storesAttributes(_ attributes: [Attribute], in objectClass: ManagedObject.Type) -> Bool {
        guard let generated = objectClass.generatedModel?.model,
              let entity = generated.entity(named: objectClass.entityName)
        else { return attributes.isEmpty }
        return generated.allAttributes(of: entity).elementsEqual(attributes) { $0.name == $1.name && $0.type == $1.type }
    }

    private func declaringEntity(of property: String, from entity: Entity) -> String {
        model.declaringEntityName(ofProperty: property, inEntityNamed: entity.name) ?? entity.name
    }

    private func describe(
        _ attribute: Attribute, slot: Int, entity: Entity, table: EntityTable, columnIndexes: [Column.Role: Int]
    ) -> AttributeDescription {
        let owner = declaringEntity(of: attribute.name, from: entity)
        let columnIndex = attribute.isPersistent ? columnIndexes[.attribute(entity: owner, attribute: attribute.name)] : nil
        var description = describe(
            attribute, name: attribute.name, slot: slot, owner: owner, columnIndex: columnIndex, table: table,
            derivationExpression: attribute.isDerived && attribute.isPersistent ? attribute.derivationExpression ?? "" : nil)
        if attribute.type == .composite {
            description.setMembers(members(
                of: attribute.compositeName, topName: attribute.name, path: [], slot: slot, owner: owner,
                table: table, columnIndexes: columnIndexes, depth: 0))
        }
        return description
    }

    /// The members of the composite named `compositeName`, as attribute descriptions named by key
    /// path (`shelfSpot.position.x`) whose leaves point at `CompositeLayout`'s columns.
    private func members(
        of compositeName: String?, topName: String, path: [String], slot: Int, owner: String, table: EntityTable,
        columnIndexes: [Column.Role: Int], depth: Int
    ) -> [AttributeDescription] {
        // Deep enough for any real model; the validator reports composites that contain themselves.
        guard depth < 16, let composite = compositeName.flatMap(model.composite(named:)) else { return [] }
        return composite.attributes.filter(\.isPersistent).map { member in
            let memberPath = path + [member.name]
            let role = Column.Role.compositeMember(entity: owner, attribute: topName, path: memberPath)
            var description = describe(
                member, name: ([topName] + memberPath).joined(separator: "."), slot: slot, owner: owner,
                columnIndex: member.type == .composite ? nil : columnIndexes[role], table: table, derivationExpression: nil)
            description.memberPath = memberPath
            if member.type == .composite {
                description.setMembers(members(
                    of: member.compositeName, topName: topName, path: memberPath, slot: slot, owner: owner,
                    table: table, columnIndexes: columnIndexes, depth: depth + 1))
            }
            return description
        }
    }

    private func describe(
        _ attribute: Attribute, name: String, slot: Int, owner: String, columnIndex: Int?, table: EntityTable,
        derivationExpression: String?
    ) -> AttributeDescription {
        let defaultValue: AttributeValue = if attribute.type == .date, let interval = attribute.defaultDateTimeInterval {
            .date(.init(timeIntervalSinceReferenceDate: interval))
        } else if let bytes = attribute.defaultData {
            .data(bytes)
        } else {
            AttributeDescription.value(fromModelText: attribute.defaultValue, type: attribute.type)
        }
        var description = AttributeDescription(
            name: name, slot: slot, type: attribute.type, isOptional: attribute.isOptional,
            isTransient: attribute.isTransient, defaultValue: defaultValue, columnIndex: columnIndex,
            columnName: columnIndex.map { table.columns[$0].name },
            minimum: bound(attribute.minValue, attribute.minDateTimeInterval, attribute.type),
            maximum: bound(attribute.maxValue, attribute.maxDateTimeInterval, attribute.type),
            regularExpression: attribute.regularExpression, entityName: owner, derivationExpression: derivationExpression)
        description.preservesValueInHistoryOnDeletion = columnIndex != nil && HistorySchema.isPreserved(attribute)
        description.valueTransformerName = attribute.valueTransformerName
        return description
    }

    /// A min/max bound: a date for dates, a length for strings and data, else a number.
    private func bound(_ text: String?, _ interval: Double?, _ type: AttributeType) -> AttributeValue? {
        if type == .date { return interval.map { .date(.init(timeIntervalSinceReferenceDate: $0)) } }
        guard let text else { return nil }
        switch type {
        case .string, .binary, .transformable, .uri: return .integer(Int64(text) ?? 0)
        case .double, .float, .decimal: return .double(Double(text) ?? 0)
        default: return AttributeDescription.value(fromModelText: text, type: type)
        }
    }

    private func describe(_ relationship: Relationship, slot: Int, entity: Entity, columnIndexes: [Column.Role: Int]) -> RelationshipDescription {
        let owner = declaringEntity(of: relationship.name, from: entity)
        let inverse = model.inverse(of: relationship)
        let storage: RelationshipDescription.Storage
        if relationship.isTransient {
            storage = .none
        } else if relationship.isToOne {
            let reference = (entity: owner, relationship: relationship.name)
            storage = .foreignKey(
                column: columnIndexes[.foreignKey(entity: reference.entity, relationship: reference.relationship)] ?? 0,
                entityColumn: columnIndexes[.foreignEntity(entity: reference.entity, relationship: reference.relationship)],
                orderColumn: columnIndexes[.orderKey(entity: reference.entity, relationship: reference.relationship)])
        } else if let inverse, inverse.isToOne, !inverse.isTransient {
            let inverseOwner = model.declaringEntityName(
                ofProperty: inverse.name, inEntityNamed: relationship.inverseEntityName ?? relationship.destinationEntityName) ?? relationship.destinationEntityName
            let table = table(forEntityNamed: inverseOwner)
            storage = .inverseForeignKey(
                table: table?.name ?? "",
                column: table?.column(for: .foreignKey(entity: inverseOwner, relationship: inverse.name))?.name ?? "",
                orderColumn: relationship.isOrdered ? table?.column(for: .orderKey(entity: inverseOwner, relationship: inverse.name))?.name : nil)
        } else if inverse != nil, let join = schema.joinTable(forRelationship: relationship.name, ofEntity: owner) {
            let isNamingSide = join.relationship == RelationshipReference(entity: owner, relationship: relationship.name)
            storage = isNamingSide
                ? .joinTable(table: join.name, ownColumn: join.sourceColumn, otherColumn: join.destinationColumn,
                             orderColumn: join.destinationOrderColumn, inverseOrderColumn: join.sourceOrderColumn)
                : .joinTable(table: join.name, ownColumn: join.destinationColumn, otherColumn: join.sourceColumn,
                             orderColumn: join.sourceOrderColumn, inverseOrderColumn: join.destinationOrderColumn)
        } else {
            let table = table(forEntityNamed: relationship.destinationEntityName)
            storage = .hiddenColumn(
                table: table?.name ?? "",
                column: table?.column(for: .inverselessToMany(entity: owner, relationship: relationship.name))?.name ?? "")
        }
        return RelationshipDescription(
            name: relationship.name, slot: slot, destinationEntityName: relationship.destinationEntityName,
            destinationEntityNumber: layouts[relationship.destinationEntityName]?.number ?? 0,
            inverseName: inverse == nil ? nil : relationship.inverseName, isToMany: relationship.isToMany,
            isOrdered: relationship.isOrdered, isOptional: relationship.isOptional, isTransient: relationship.isTransient,
            deleteRule: relationship.deleteRule,
            minCount: relationship.isToMany ? relationship.minCount : nil,
            maxCount: relationship.isToMany ? relationship.maxCount.flatMap { $0 > 0 ? $0 : nil } : nil,
            entityName: owner, storage: storage)
    }
}
