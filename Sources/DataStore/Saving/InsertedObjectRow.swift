import GRDB

extension SaveChanges.Row {
    /// Gives `bind` the values of `entity.insertColumns` for this object as the row `key`: its key,
    /// entity and version, each stored attribute's columns, then each to-one's foreign key (and
    /// entity column), a destination inserted by the same save found in `permanentIDs` (without
    /// them, every to-one is written empty).
    func forEachInsertedValue(key: Int64, permanentIDs: PermanentIDs?, _ bind: (DatabaseValue) -> Void) {
        let layout = entity.rowLayout
        bind(key.databaseValue)
        bind(entity.number.databaseValue)
        bind(1.databaseValue)
        for slot in layout.storedAttributeSlots {
            // The row layout knows which slots are composites without copying their descriptions:
            // this loop runs for every attribute of every inserted row.
            if layout.attributes[slot].isComposite, let composite = layout.composites[slot] {
                composite.forEachStoredColumn(of: attributes[slot]) { _, stored in bind(stored.databaseValue) }
            } else {
                bind(attributes[slot].databaseValue)
            }
        }
        for read in layout.toOnes {
            let target: ObjectID? = if case .toOne(let id) = relationships[read.slot] { permanentIDs?.resolved(id) } else { nil }
            bind(target?.primaryKey?.databaseValue ?? .null)
            if read.entityColumn != nil { bind(target?.entityNumber.databaseValue ?? .null) }
        }
    }
}

/// An inserted object's row: the object as the row `key`, its to-ones' destinations inserted by
/// the same save found in `permanentIDs` (see `SaveChanges.Row.forEachInsertedValue`).
struct InsertedObjectRow: InsertedRow {
    let object: SaveChanges.Row
    let key: Int64
    let permanentIDs: PermanentIDs?

    func forEachValue(_ body: (DatabaseValue) -> Void) {
        object.forEachInsertedValue(key: key, permanentIDs: permanentIDs, body)
    }
}
