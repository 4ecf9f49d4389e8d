import DataModel

/// The indexes Core Data creates, with its names (§2.6 of the format reference), in its order:
/// per table the foreign keys and `Z_ENT`, then join tables, then per entity its attribute indexes,
/// compound indexes, fetch indexes and uniqueness constraints.
extension StoreSchemaBuilder {
    func indexes(tables: [EntityTable], joinTables: [JoinTable]) -> [StoreIndex] {
        var indexes: [StoreIndex] = []
        func plain(_ name: String, _ table: String, _ columns: [String]) -> StoreIndex {
            StoreIndex(
                name: name, table: table,
                keys: columns.map { StoreIndex.Key(column: $0, isCollated: false, isDescending: false) }, isUnique: false)
        }
        let roots = Dictionary(layouts.filter { $0.superNumber == 0 }.map { ($0.tableName, $0) }, uniquingKeysWith: { first, _ in first })
        for table in tables {
            for column in table.columns {
                switch column.role {
                case .foreignKey, .inverselessToMany:
                    indexes.append(plain("\(table.name)_\(column.name)_INDEX", table.name, [column.name]))
                default: break
                }
            }
            if let root = roots[table.name], root.subtreeNumbers.count > 1 {
                indexes.append(plain("\(table.name)_Z_ENT_INDEX", table.name, ["Z_ENT"]))
            }
        }
        for join in joinTables {
            indexes.append(plain("\(join.name)_\(join.destinationColumn)_INDEX", join.name, [join.destinationColumn, join.sourceColumn]))
        }
        let tableByName = Dictionary(tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for (layout, position) in zip(layouts, positions) {
            guard let table = tableByName[layout.tableName] else { continue }
            indexes += declaredIndexes(of: model.entities[position], in: table)
        }
        var names: Set<String> = []
        return indexes.filter { names.insert($0.name).inserted }
    }

    private func declaredIndexes(of entity: Entity, in table: EntityTable) -> [StoreIndex] {
        var indexes: [StoreIndex] = []
        func collated(_ name: String, _ properties: [(String, Bool)], unique: Bool = false) {
            let keys = properties.compactMap { property, isDescending in
                column(forProperty: property, of: entity, in: table)
                    .map { StoreIndex.Key(column: $0, isCollated: true, isDescending: isDescending) }
            }
            guard keys.count == properties.count, !keys.isEmpty else { return }
            indexes.append(StoreIndex(name: name, table: table.name, keys: keys, isUnique: unique))
        }
        // Legacy `indexed="YES"`, and the attribute index Xcode keeps beside a single-element fetch
        // index it converted from that flag (named `by<Attribute>`; seen in Core Data-written stores).
        var indexedAttributes = entity.attributes.filter { $0.isIndexed && $0.isPersistent }.map(\.name).sorted()
        for fetchIndex in entity.fetchIndexes where fetchIndex.elements.count == 1 {
            if let property = fetchIndex.elements[0].property, fetchIndex.name.lowercased() == "by" + property.lowercased(),
               entity.attribute(named: property) != nil, !indexedAttributes.contains(property)
            {
                indexedAttributes.append(property)
            }
        }
        for attribute in indexedAttributes { collated("Z_\(entity.name)_\(attribute)", [(attribute, false)]) }
        for (offset, compound) in entity.compoundIndexes.enumerated() {
            collated("Z_\(entity.name)_compoundIndex\(offset == 0 ? "" : String(offset))", compound.properties.map { ($0.name, false) })
        }
        for fetchIndex in entity.fetchIndexes {
            let properties = fetchIndex.elements.compactMap { element in element.property.map { ($0, element.order == .descending) } }
            collated("Z_\(entity.name)_\(fetchIndex.name)", properties)
        }
        for constraint in entity.uniquenessConstraints {
            let names = constraint.properties.map(\.name)
            collated("Z_\(entity.name)_UNIQUE_" + names.joined(separator: "_"), names.map { ($0, false) }, unique: true)
        }
        return indexes
    }

    /// The column of an attribute or to-one relationship of `entity`, own or inherited.
    func column(forProperty name: String, of entity: Entity, in table: EntityTable) -> String? {
        guard let owner = model.declaringEntityName(ofProperty: name, inEntityNamed: entity.name) else { return nil }
        return (table.column(for: .attribute(entity: owner, attribute: name))
            ?? table.column(for: .foreignKey(entity: owner, relationship: name)))?.name
    }
}
