import GRDB

/// SQLite's prepared statement takes an inserted row's values in place.
extension ParameterBinder: InsertedRowValues {}

extension SaveChanges.Row {
    /// Binds the parameters of `entity.insertColumns` for this object as the row `key`: its key,
    /// entity and version, each stored attribute's columns, then each to-one's foreign key (and
    /// entity column) from `destinationKey`, which gives the permanent ID of a destination.
    func bindInsertedRow(key: Int64, destinationKey: (ObjectID?) -> ObjectID?, to row: inout some InsertedRowValues) {
        let layout = entity.rowLayout
        row.bind(key.databaseValue)
        row.bind(entity.number.databaseValue)
        row.bind(1.databaseValue)
        for slot in layout.storedAttributeSlots {
            // The row layout knows which slots are composites without copying their descriptions:
            // this loop runs for every attribute of every inserted row.
            if layout.attributes[slot].isComposite, let composite = layout.composites[slot] {
                composite.forEachStoredColumn(of: attributes[slot]) { _, stored in row.bind(stored.databaseValue) }
            } else {
                row.bind(attributes[slot].databaseValue)
            }
        }
        for read in layout.toOnes {
            let target: ObjectID? = if case .toOne(let id) = relationships[read.slot] { destinationKey(id) } else { nil }
            row.bind(target?.primaryKey?.databaseValue ?? .null)
            if read.entityColumn != nil { row.bind(target?.entityNumber.databaseValue ?? .null) }
        }
    }
}

/// An inserted object's row: the object as the row `key`, its to-ones' destinations' permanent
/// IDs given by `destinationKey`.
struct InsertedObjectRow: InsertedRow {
    let object: SaveChanges.Row
    let key: Int64
    let destinationKey: (ObjectID?) -> ObjectID?

    func bindValues(to values: inout some InsertedRowValues) {
        object.bindInsertedRow(key: key, destinationKey: destinationKey, to: &values)
    }

    func appendValues(to values: inout [DatabaseValue]) {
        object.bindInsertedRow(key: key, destinationKey: destinationKey, to: &values)
    }
}
