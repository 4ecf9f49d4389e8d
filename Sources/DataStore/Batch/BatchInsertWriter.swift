import GRDB

/// The statements of a batch insert: one object of the entity's class is filled for each row,
/// validated as a save validates it, and written as a save writes an inserted object.
struct BatchInsertWriter<Object: ManagedObject> {
    let context: ObjectContext
    let entity: EntityDescription
    let source: BatchInsertRequest<Object>.Source

    private var store: PersistentStore { context.store }

    mutating func write(_ transaction: SaveTransaction) throws -> BatchChanges {
        // The object lives in a context of its own, never saved: this one is not touched.
        let scratch = ObjectContext(store: store)
        guard let object = scratch.insertObject(of: entity) as? Object else {
            throw BatchError.invalidRequest(.classMismatch(entity: entity.name, type: "\(Object.self)"))
        }
        let defaults = entity.rowLayout.defaultValues
        let root = entity.rootNumber
        // Locked first on a server, so that no other process takes the same keys meanwhile.
        let recorded = try transaction.integer("SELECT \(.Z_MAX) FROM \(.Z_PRIMARYKEY) WHERE \(.Z_ENT) = ?" + store.dialect.lockingRows, [root.databaseValue]) ?? 0
        let used = try transaction.integer("SELECT MAX(\(.Z_PK)) FROM \(name: entity.tableName)", []) ?? 0
        var lastKey = max(recorded, used)
        let mayBeRefused = !entity.uniquenessConstraints.isEmpty
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
            let key = lastKey
            let values = SaveChanges.Row(inserting: object, values: &rowValues)
            let refusal = try transaction.refusal(of: {
                try transaction.insert(values, key: key, destinationKey: { _ in nil })
            }, mayBeRefused: mayBeRefused)
            if let refusal {
                let conflicts = try UniquenessConflicts.failures(of: values, key: key, store: store, destinationKey: { _ in nil }, in: transaction)
                // A refusal no constraint of the model explains is not the caller's to fix.
                guard !conflicts.isEmpty else { throw refusal }
                failures += conflicts.map { BatchInsertFailure(index: index, failure: $0) }
                continue
            }
            changes.inserted.append(store.objectID(key: .permanent(key), entityNumber: entity.number))
        }
        guard failures.isEmpty else { throw BatchError.invalidInsertedObjects(failures) }
        try transaction.execute("UPDATE \(.Z_PRIMARYKEY) SET \(.Z_MAX) = ? WHERE \(.Z_ENT) = ?", [lastKey.databaseValue, root.databaseValue])
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
