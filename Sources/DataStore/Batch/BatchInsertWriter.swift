import GRDB

/// The statements of a batch insert: one object of the entity's class is filled for each row,
/// validated as a save validates it, and written as a save writes an inserted object.
struct BatchInsertWriter<Object: ManagedObject> {
    let context: ObjectContext
    let entity: EntityDescription
    let source: BatchInsertRequest<Object>.Source

    var store: PersistentStore { context.store(holding: entity) }

    mutating func write(_ transaction: SaveTransaction) throws -> BatchChanges {
        // The object lives in a context of its own, never saved: this one is not touched.
        let scratch = ObjectContext(store: store)
        guard let object = scratch.insertObject(of: entity) as? Object else {
            throw BatchError.invalidRequest(.classMismatch(entity: entity.name, type: "\(Object.self)"))
        }
        let defaults = entity.rowLayout.defaultValues
        let root = entity.rootNumber
        var lastKey = try transaction.lastPrimaryKey(ofRoot: root, table: entity.tableName, dialect: store.dialect)
        let firstKey = lastKey
        let mayBeRefused = !entity.uniquenessConstraints.isEmpty
        var changes = BatchChanges()
        // The stored objects rows merged into, each once, with the attributes written.
        var upserted: [ObjectID: Set<String>] = [:], upsertOrder: [ObjectID] = []
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
                try transaction.insert(values, key: key, permanentIDs: nil)
            }, mayBeRefused: mayBeRefused)
            if let refusal {
                let conflicts = try UniquenessConflicts.failures(of: values, key: key, store: store, destinationKey: { _ in nil }, in: transaction)
                // A refusal no constraint of the model explains is not the caller's to fix.
                guard !conflicts.isEmpty else { throw refusal }
                if context.mergePolicy.builtIn != .error, let existing = Self.soleConflictingObject(conflicts) {
                    // The upsert: the row merges into the one it clashes with, and takes no key.
                    lastKey -= 1
                    let merged = try merge(values, into: existing, transaction)
                    // A row this request inserted is reported as inserted, once.
                    if !merged.isEmpty, (existing.primaryKey ?? 0) <= firstKey {
                        if upserted[existing] == nil { upsertOrder.append(existing) }
                        upserted[existing, default: []].formUnion(merged)
                    }
                    continue
                }
                failures += conflicts.map { BatchInsertFailure(index: index, failure: $0) }
                continue
            }
            changes.inserted.append(store.objectID(key: .permanent(key), entityNumber: entity.number))
        }
        guard failures.isEmpty else { throw BatchError.invalidInsertedObjects(failures) }
        changes.updated = upsertOrder.map { ($0, upserted[$0]!) }
        try transaction.recordLastPrimaryKey(lastKey, ofRoot: root, locksRows: store.engine.locksRows)
        return changes
    }

    /// The one stored object a row clashes with on every constraint it breaks; `nil` when it
    /// clashes with several, which no merge can make one.
    private static func soleConflictingObject(_ conflicts: [ValidationFailure]) -> ObjectID? {
        let objects = Set(conflicts.compactMap { failure -> ObjectID? in
            if case .uniquenessViolated(_, _, let other) = failure { other } else { nil }
        })
        return objects.count == 1 ? objects.first : nil
    }

    /// Writes the row's values into the stored row `existing` by the context's merge policy, as
    /// `ObjectContext` merges a clashing inserted object: object trump takes the row's values
    /// other than `nil`, overwrite all of them, store trump only where the stored row has `nil`,
    /// rollback none. Returns the attributes written.
    private func merge(_ values: SaveChanges.Row, into existing: ObjectID, _ transaction: SaveTransaction) throws -> Set<String> {
        let policy = context.mergePolicy.builtIn
        guard policy != .rollback, policy != .error, let key = existing.primaryKey else { return [] }
        var assignments: [SQL] = []
        var arguments: [DatabaseValue] = []
        var written: Set<String> = []
        for attribute in entity.attributes where !attribute.isDerived && !attribute.isTransient {
            attribute.forEachStoredColumn(of: values.attributes[attribute.slot]) { index, stored in
                let column: SQL = "\(name: entity.tableColumns[index])"
                let assignment: SQL = switch policy {
                case .overwrite: column + " = ?"
                case .mergeByPropertyStoreTrump: column + " = COALESCE(" + column + ", ?)"
                default: column + " = COALESCE(?, " + column + ")"
                }
                assignments.append(assignment)
                arguments.append(store.dialect.storedValue(stored))
                written.insert(attribute.name)
            }
        }
        guard !assignments.isEmpty else { return [] }
        arguments.append(key.databaseValue)
        let sql: SQL = "UPDATE \(name: entity.tableName) SET \(assignments.joined(separator: ", ")), \(.Z_OPT) = \(.Z_OPT) + 1 WHERE \(.Z_PK) = ?"
        _ = try transaction.execute(sql, arguments)
        return written
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
