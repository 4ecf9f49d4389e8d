extension ParameterBinder {
    /// Binds the parameters of `entity.insertStatement` for `object` as the row `key`: its key,
    /// entity and version, each stored attribute's columns, then each to-one's foreign key (and
    /// entity column) from `destinationKey`, which gives the permanent ID of a destination.
    mutating func bindRow(of object: SaveChanges.Row, key: Int64, destinationKey: (ObjectID?) -> ObjectID?) {
        let entity = object.entity
        let layout = entity.rowLayout
        bind(key.databaseValue)
        bind(entity.number.databaseValue)
        bind(1.databaseValue)
        for slot in layout.storedAttributeSlots {
            // The row layout knows which slots are composites without copying their descriptions:
            // this loop runs for every attribute of every inserted row.
            if layout.attributes[slot].isComposite, let composite = layout.composites[slot] {
                composite.forEachStoredColumn(of: object.attributes[slot]) { _, stored in bind(stored.databaseValue) }
            } else {
                bind(object.attributes[slot].databaseValue)
            }
        }
        for read in layout.toOnes {
            let target: ObjectID? = if case .toOne(let id) = object.relationships[read.slot] { destinationKey(id) } else { nil }
            bind(target?.primaryKey?.databaseValue ?? .null)
            if read.entityColumn != nil { bind(target?.entityNumber.databaseValue ?? .null) }
        }
    }
}
