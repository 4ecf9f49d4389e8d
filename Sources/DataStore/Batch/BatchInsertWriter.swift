import GRDB

/// The statements of a batch insert: one object of the entity's class is filled for each row,
/// validated as a save validates it, and bound to the entity's prepared `INSERT`.
struct BatchInsertWriter<Object: ManagedObject> {
    let context: ObjectContext
    let entity: EntityDescription
    let source: BatchInsertRequest<Object>.Source

    private var store: PersistentStore { context.store }

    mutating func write(_ db: Database) throws -> BatchChanges {
        // The object lives in a context of its own, never saved: this one is not touched.
        let scratch = ObjectContext(store: store)
        guard let object = scratch.insertObject(of: entity) as? Object else {
            throw BatchError.invalidRequest(.classMismatch(entity: entity.name, type: "\(Object.self)"))
        }
        let defaults = entity.rowLayout.defaultValues
        let root = entity.rootNumber
        let recorded = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [root]) ?? 0
        let used = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(entity.tableName)") ?? 0
        var lastKey = max(recorded, used)
        let statement = try db.cachedStatement(sql: entity.insertStatement)
        let logsSQL = store.logsSQL
        var changes = BatchChanges()
        var failures: [BatchInsertFailure] = []
        var index = 0
        var rowValues = AttributeValues.Writer(valuesPerBuffer: 4096)
        while true {
            object.setCurrentAttributeValues(defaults)
            guard try fill(object, index) else { break }
            defer { index += 1 }
            var invalid = scratch.takeMisuses()
            scratch.validate(object, into: &invalid)
            guard invalid.isEmpty else {
                failures += invalid.map { BatchInsertFailure(index: index, failure: $0) }
                continue
            }
            lastKey += 1
            let values = SaveChanges.Row(inserting: object, values: &rowValues)
            var row = ParameterBinder(statement, logging: logsSQL)
            values.bindInsertedRow(key: lastKey, destinationKey: { _ in nil }, to: &row)
            if let values = row.logged { store.log(entity.insertStatement, values) }
            do {
                try row.execute()
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                let conflicts = try UniquenessConflicts.failures(
                    of: values, key: lastKey, store: store, destinationKey: { _ in nil }, in: SQLiteSaveTransaction(db, store: store))
                failures += conflicts.map { BatchInsertFailure(index: index, failure: $0) }
                continue
            }
            changes.inserted.append(store.objectID(key: .permanent(lastKey), entityNumber: entity.number))
        }
        guard failures.isEmpty else { throw BatchError.invalidInsertedObjects(failures) }
        try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [lastKey, root])
        return changes
    }

    /// Fills `object` for the row at `index`; `false` when there are no more rows.
    private func fill(_ object: Object, _ index: Int) throws -> Bool {
        switch source {
        case .handler(let handler):
            return !handler(object, index)
        case .dictionaries(let rows):
            guard index < rows.count else { return false }
            for (key, value) in rows[index] {
                // Attributes only: a batch insert sets no relationship, as in Core Data.
                guard entity.attribute(named: key) != nil else { throw BatchError.invalidRequest(.unknownKey(entity: entity.name, key: key)) }
                do {
                    try object.setValue(value, forKey: key)
                } catch {
                    throw BatchError.invalidRequest(error)
                }
            }
            return true
        }
    }
}
