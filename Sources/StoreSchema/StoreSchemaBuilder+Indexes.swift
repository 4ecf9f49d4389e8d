import DataModel

/// The indexes Core Data creates, with its names (§2.6 of the format reference), in its order:
/// per table the foreign keys and `Z_ENT`, then join tables, then per entity its attribute indexes,
/// compound indexes, fetch indexes and uniqueness constraints.
extension StoreSchemaBuilder {
    /// Every index: the tables' own (`tableIndexes`) and the join tables', then `declaredIndexes`
    /// (those the entities declare, in entity-number order); of two with one name, the first.
    func indexes(tableIndexes: [StoreIndex], joinTables: [JoinTable], declaredIndexes: [StoreIndex]) -> [StoreIndex] {
        var indexes = tableIndexes
        indexes.reserveCapacity(tableIndexes.count + joinTables.count + declaredIndexes.count)
        for join in joinTables where framework.indexesJoinTables {
            indexes.append(StoreIndex(
                name: String(concatenating: join.name, "_", join.destinationColumn, "_INDEX"), table: join.name,
                keys: [.plain(join.destinationColumn), .plain(join.sourceColumn)], isUnique: false))
        }
        indexes += declaredIndexes
        var fingerprints = indexes.map { NameFingerprint($0.name).value }
        guard !NameFingerprint.areDistinct(&fingerprints) else { return indexes }
        var names: Set<String> = []
        return indexes.filter { names.insert($0.name).inserted }
    }

    /// Appends the indexes the entity numbered `number` declares, on the columns of its table
    /// (`requests` and their `names`, as the table was built from them).
    func appendDeclaredIndexes(
        number: Int, in table: EntityTable, requests: [Request], names: [ColumnNaming.Names], to indexes: inout [StoreIndex]
    ) {
        let position = positions[number - 1]
        let prefix = String(concatenating: "Z_", model.entities[position].name, "_")
        /// The column of an attribute or to-one relationship of the entity, own or inherited.
        func column(forProperty name: String) -> String? {
            var declaring = number
            for _ in layouts.indices where declaring > 0 {
                // Nearly always an attribute or to-one of this entity: its column, found without
                // scanning the entity's properties first.
                if let request = requests.firstIndex(where: { $0.entityNumber == declaring && $0.isIndexable && $0.sortName == name }) {
                    return names[request].column
                }
                if model.entities[positions[declaring - 1]].declaresProperty(named: name) { return nil }
                declaring = layouts[declaring - 1].superNumber
            }
            return nil
        }
        /// An index over the columns of `properties`; an element without a column (a to-many
        /// relationship, which Xcode lets a fetch index name) is left out.
        func collated(_ name: @autoclosure () -> String, _ properties: [(String, Bool)], unique: Bool = false) {
            var keys: [StoreIndex.Key] = []
            keys.reserveCapacity(properties.count)
            for (property, isDescending) in properties {
                guard let column = column(forProperty: property) else {
                    if unique || !isToManyRelationship(property) { return }
                    continue
                }
                keys.append(StoreIndex.Key(column: column, isCollated: true, isDescending: isDescending))
            }
            guard !keys.isEmpty else { return }
            indexes.append(StoreIndex(name: name(), table: table.name, keys: keys, isUnique: unique))
        }
        func isToManyRelationship(_ name: String) -> Bool {
            if case .relationship(let relationship)? = model.property(named: name, in: model.entities[position]) {
                return relationship.isToMany && !relationship.isTransient
            }
            return false
        }
        /// Before iOS 11, `indexed` attributes and compound indexes: plain keys, named after the columns.
        func namedAfterColumns(_ properties: [String], suffix: String) {
            let columns = properties.compactMap(column(forProperty:))
            guard columns.count == properties.count, !columns.isEmpty else { return }
            indexes.append(StoreIndex(
                name: ([table.name] + columns).joined(separator: "_") + suffix, table: table.name,
                keys: columns.map(StoreIndex.Key.plain), isUnique: false))
        }
        // Legacy `indexed="YES"`, and the attribute index Xcode keeps beside a single-element fetch
        // index it converted from that flag (named `by<Attribute>`; seen in Core Data-written stores).
        let attributes = model.entities[position].attributes
        var indexedAttributes: [String] = []
        for index in attributes.indices where attributes[index].isIndexed && !attributes[index].isTransient {
            indexedAttributes.append(attributes[index].name)
        }
        indexedAttributes.sort()
        let fetchIndexes = model.entities[position].fetchIndexes
        for index in fetchIndexes.indices where fetchIndexes[index].elements.count == 1 {
            if let property = fetchIndexes[index].elements[0].property,
               fetchIndexes[index].name.lowercased() == "by" + property.lowercased(),
               attributes.contains(where: { $0.name == property }), !indexedAttributes.contains(property)
            {
                indexedAttributes.append(property)
            }
        }
        if framework.namesIndexesAfterColumns {
            for attribute in indexedAttributes { namedAfterColumns([attribute], suffix: "_INDEX") }
            for compound in model.entities[position].compoundIndexes { namedAfterColumns(compound.properties.map(\.name), suffix: "") }
        } else {
            for attribute in indexedAttributes { collated(prefix + attribute, [(attribute, false)]) }
            for (offset, compound) in model.entities[position].compoundIndexes.enumerated() {
                collated(prefix + "compoundIndex" + (offset == 0 ? "" : String(offset)), compound.properties.map { ($0.name, false) })
            }
        }
        for index in fetchIndexes.indices {
            let properties = fetchIndexes[index].elements.compactMap { element in
                element.property.map { ($0, element.order == .descending) }
            }
            collated(prefix + fetchIndexes[index].name, properties)
        }
        for constraint in model.entities[position].uniquenessConstraints {
            let names = constraint.properties.map(\.name)
            collated(prefix + "UNIQUE_" + names.joined(separator: "_"), names.map { ($0, false) }, unique: true)
        }
    }
}

extension StoreIndex {
    /// Core Data's index of one key column of an entity table: `<TABLE>_<COLUMN>_INDEX`.
    static func keyIndex(table: String, column: String) -> StoreIndex {
        StoreIndex(name: String(concatenating: table, "_", column, "_INDEX"), table: table, keys: [.plain(column)], isUnique: false)
    }
}

extension StoreIndex.Key {
    /// A key without collation or order, as Core Data writes those of its own indexes.
    static func plain(_ column: String) -> StoreIndex.Key {
        StoreIndex.Key(column: column, isCollated: false, isDescending: false)
    }
}
