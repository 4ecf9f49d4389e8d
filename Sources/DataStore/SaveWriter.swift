import Foundation
import GRDB

/// The statements of one save, run inside its write transaction.
struct SaveWriter {
    let context: ObjectContext
    let toInsert: [ManagedObject]
    let toUpdate: [ManagedObject]
    let toDelete: [ManagedObject]
    /// The permanent ID the transaction gave each object of `toInsert`.
    private(set) var permanentIDs = PermanentIDs()
    /// The values the store's derived-attribute triggers computed, in the order they did.
    private(set) var derivedValues: [DerivedValueLog.Report] = []
    /// The number of the history transaction the save wrote.
    private(set) var historyTransaction: Int64?
    /// The changed properties of each object of `toUpdate`, when the history needed them first.
    private(set) var updatedKeys: [Set<String>]?
    /// The values the history keeps of deleted objects, read before their rows go.
    private var tombstones: [ObjectID: [DatabaseValue]] = [:]

    /// Rolls the transaction back with the reason.
    enum Abort: Error {
        case conflicts([SaveError.Conflict])
        case validation([ValidationFailure])
    }

    /// Whether each statement is logged, checked once per save rather than once per row.
    private let logsSQL: Bool
    /// Each entity's prepared `INSERT`, by entity number: reused from row to row, as a save may
    /// insert many thousands.
    private var insertStatements: [Int: Statement] = [:]

    init(context: ObjectContext, toInsert: [ManagedObject], toUpdate: [ManagedObject], toDelete: [ManagedObject]) {
        self.context = context
        self.toInsert = toInsert
        self.toUpdate = toUpdate
        self.toDelete = toDelete
        logsSQL = context.store.logsSQL
    }

    private var store: PersistentStore { context.store }

    mutating func write(_ db: Database) throws {
        _ = store.derivedValues.take()  // left by an earlier write that rolled back
        try allocatePrimaryKeys(db)
        var conflicts: [SaveError.Conflict] = []
        var failures: [ValidationFailure] = []
        for (object, id) in zip(toInsert, permanentIDs.ids) {
            do {
                try insert(object, key: id.primaryKey ?? 0, db)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
                failures += try uniquenessFailures(of: object, db)
            }
        }
        for object in toUpdate {
            do {
                if try !update(object, db) { conflicts.append(try conflict(for: object, db)) }
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                failures += try uniquenessFailures(of: object, db)
            }
        }
        if store.tracksHistory { try readTombstones(db) }
        for object in toDelete where try !delete(object, db) {
            conflicts.append(try conflict(for: object, db))
        }
        for object in toInsert { try writeToManyChanges(of: object, db) }
        for object in toUpdate { try writeToManyChanges(of: object, db) }
        if !conflicts.isEmpty { throw Abort.conflicts(conflicts) }
        if !failures.isEmpty { throw Abort.validation(failures) }
        derivedValues = store.derivedValues.take()
        if store.tracksHistory { try writeHistory(db) }
    }

    /// Records the save's inserts, updates (with the changed properties) and deletes as one
    /// transaction of the store's history.
    private mutating func writeHistory(_ db: Database) throws {
        var history = HistoryRecorder()
        for (object, id) in zip(toInsert, permanentIDs.ids) {
            history.record(.insert, entityNumber: object.entity.number, key: id.primaryKey ?? 0)
        }
        let updatedKeys = toUpdate.map(context.changedKeys(of:))
        for (object, keys) in zip(toUpdate, updatedKeys) {
            history.recordUpdate(of: object.entity, key: key(of: object), properties: keys, layout: store.historyColumns(of: object.entity))
        }
        self.updatedKeys = updatedKeys
        for object in toDelete {
            history.record(.delete, entityNumber: object.entity.number, key: key(of: object), tombstone: tombstones[object.objectID] ?? [])
        }
        let number = try history.write(
            author: context.transactionAuthor, contextName: context.name, tombstoneColumns: store.tombstoneColumns, in: db)
        historyTransaction = number
        store.noteOwnHistoryTransaction(number)
    }

    /// Reads the values that the deleted objects of entities with preserved attributes leave in
    /// the history.
    private mutating func readTombstones(_ db: Database) throws {
        for object in toDelete {
            let layout = store.historyTombstones(of: object.entity)
            guard !layout.isEmpty else { continue }
            let key = key(of: object)
            let row = SQLFragment(sql: "Z_PK = ?", arguments: [key.databaseValue])
            tombstones[object.objectID] = try layout.values(ofRowsIn: object.entity.tableName, where: row, store: store, db)[key]
        }
    }

    // MARK: Primary keys

    /// Takes `Z_MAX + 1 …` from each hierarchy's root row of `Z_PRIMARYKEY` (also past the table's
    /// largest `Z_PK`, in case a store's `Z_MAX` lags), and stores the new maximum.
    private mutating func allocatePrimaryKeys(_ db: Database) throws {
        // The last key taken in each hierarchy, by root entity number.
        var lastKeys = [Int64](repeating: 0, count: store.entities.count + 1)
        let roots = Set(toInsert.lazy.map(\.entity.rootNumber)).sorted()
        for root in roots {
            let table = store.entity(number: root)?.tableName ?? ""
            let recorded = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [root]) ?? 0
            let used = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(table)") ?? 0
            lastKeys[root] = max(recorded, used)
        }
        var temporaryKeys: [UInt64] = []
        var ids: [ObjectID] = []
        temporaryKeys.reserveCapacity(toInsert.count)
        ids.reserveCapacity(toInsert.count)
        for object in toInsert {
            let id = object.objectID
            guard case .temporary(let key) = id.key else {
                // A saved delete, undone: the row comes back with its key, which `Z_MAX` covers.
                temporaryKeys.append(0)
                ids.append(id)
                continue
            }
            let root = object.entity.rootNumber
            lastKeys[root] += 1
            temporaryKeys.append(key)
            ids.append(ObjectID(scope: id.scope, key: .permanent(lastKeys[root])))
        }
        for root in roots {
            try execute(db, "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", [lastKeys[root], root])
        }
        permanentIDs = PermanentIDs(temporaryKeys: temporaryKeys, permanent: ids)
    }

    /// The permanent form of `id` (itself when already permanent); `nil` for an object that will not
    /// be saved.
    private func resolved(_ id: ObjectID?) -> ObjectID? {
        guard let id else { return nil }
        return id.isTemporaryID ? permanentIDs[id] : id
    }

    private func key(of object: ManagedObject) -> Int64 {
        resolved(object.objectID)?.primaryKey ?? 0
    }

    // MARK: Rows

    private mutating func insert(_ object: ManagedObject, key: Int64, _ db: Database) throws {
        var row = ParameterBinder(try insertStatement(of: object.entity, db), logging: logsSQL)
        row.bindRow(of: object, key: key, destinationKey: resolved)
        if let values = row.logged { store.log(object.entity.insertStatement, values) }
        try row.execute()
    }

    private mutating func insertStatement(of entity: EntityDescription, _ db: Database) throws -> Statement {
        if let statement = insertStatements[entity.number] { return statement }
        let statement = try db.cachedStatement(sql: entity.insertStatement)
        insertStatements[entity.number] = statement
        return statement
    }

    /// Writes the changed columns if the row still has the version the context read.
    private func update(_ object: ManagedObject, _ db: Database) throws -> Bool {
        let entity = object.entity
        var assignments: [String] = []
        var values: [DatabaseValue] = []
        for attribute in entity.attributes where object.attributeChanged(atSlot: attribute.slot) {
            attribute.forEachStoredColumn(of: object.primitiveValue(atSlot: attribute.slot)) { index, stored in
                assignments.append("\(entity.tableColumns[index]) = ?")
                values.append(stored.databaseValue)
            }
        }
        for relationship in entity.relationships {
            guard case .foreignKey(let column, let entityColumn, _) = relationship.storage,
                  case .toOne(let id) = object.relationshipValues[relationship.slot],
                  !ObjectContext.same(object.relationshipValues[relationship.slot], object.savedRelationshipValues[relationship.slot])
            else { continue }
            let target = resolved(id)
            assignments.append("\(entity.tableColumns[column]) = ?")
            values.append(target?.primaryKey?.databaseValue ?? .null)
            if let entityColumn {
                assignments.append("\(entity.tableColumns[entityColumn]) = ?")
                values.append(target?.entityNumber.databaseValue ?? .null)
            }
        }
        assignments.append("Z_OPT = ?")
        values += [(object.version + 1).databaseValue, key(of: object).databaseValue, object.version.databaseValue]
        let sql = "UPDATE \(entity.tableName) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ? AND Z_OPT = ?"
        store.log(sql, values)
        try db.cachedStatement(sql: sql).execute(binding: values)
        return db.changesCount == 1
    }

    /// Deletes the row if it still has the version the context read, with its join-table rows and
    /// hidden inverse references.
    private func delete(_ object: ManagedObject, _ db: Database) throws -> Bool {
        let entity = object.entity
        let key = key(of: object)
        try execute(db, "DELETE FROM \(entity.tableName) WHERE Z_PK = ? AND Z_OPT = ?", [key, object.version])
        guard db.changesCount == 1 else { return false }
        for relationship in entity.relationships {
            switch relationship.storage {
            case .joinTable(let table, let ownColumn, _, _, _):
                try execute(db, "DELETE FROM \(table) WHERE \(ownColumn) = ?", [key])
            case .hiddenColumn(let table, let column):
                try execute(db, "UPDATE \(table) SET \(column) = NULL WHERE \(column) = ?", [key])
            default:
                break
            }
        }
        return true
    }

    private func conflict(for object: ManagedObject, _ db: Database) throws -> SaveError.Conflict {
        let current = try Int64.fetchOne(
            db, sql: "SELECT Z_OPT FROM \(object.entity.tableName) WHERE Z_PK = ?", arguments: [key(of: object)])
        return SaveError.Conflict(objectID: object.objectID, expectedVersion: object.version, storeVersion: current)
    }

    // MARK: To-many relationships

    /// Join-table rows, order keys and hidden inverse columns of the to-many relationships that
    /// changed. Order keys are spaced by 1024, as Core Data spaces them.
    private func writeToManyChanges(of object: ManagedObject, _ db: Database) throws {
        for relationship in object.entity.relationships where relationship.isToMany {
            guard case .toMany(let current) = object.relationshipValues[relationship.slot] else { continue }
            let saved: ObjectIDList = if case .toMany(let list) = object.savedRelationshipValues[relationship.slot] { list } else { ObjectIDList() }
            guard current != saved else { continue }
            let owner = key(of: object)
            let currentKeys = current.compactMap { resolved($0)?.primaryKey }
            let savedKeys = saved.compactMap { resolved($0)?.primaryKey }
            let kept = Set(currentKeys), previous = Set(savedKeys)
            let removed = savedKeys.filter { !kept.contains($0) }
            let added = currentKeys.filter { !previous.contains($0) }
            switch relationship.storage {
            case .joinTable(let table, let ownColumn, let otherColumn, let orderColumn, _):
                for key in removed {
                    try execute(db, "DELETE FROM \(table) WHERE \(ownColumn) = ? AND \(otherColumn) = ?", [owner, key])
                }
                for key in added {
                    try execute(db, "INSERT OR IGNORE INTO \(table) (\(ownColumn), \(otherColumn)) VALUES (?, ?)", [owner, key])
                }
                if let orderColumn {
                    for (index, key) in currentKeys.enumerated() {
                        try execute(
                            db, "UPDATE \(table) SET \(orderColumn) = ? WHERE \(ownColumn) = ? AND \(otherColumn) = ?",
                            [(index + 1) * 1024, owner, key])
                    }
                }
            case .inverseForeignKey(let table, _, let orderColumn?):
                for (index, key) in currentKeys.enumerated() {
                    try execute(db, "UPDATE \(table) SET \(orderColumn) = ? WHERE Z_PK = ?", [(index + 1) * 1024, key])
                }
            case .hiddenColumn(let table, let column):
                for key in removed {
                    try execute(db, "UPDATE \(table) SET \(column) = NULL WHERE Z_PK = ? AND \(column) = ?", [key, owner])
                }
                for key in added {
                    try execute(db, "UPDATE \(table) SET \(column) = ? WHERE Z_PK = ?", [owner, key])
                }
            default:
                break
            }
        }
    }

    /// Runs one statement through the statement cache, logging it.
    private func execute(_ db: Database, _ sql: String, _ arguments: [any DatabaseValueConvertible]) throws {
        try store.execute(SQLFragment(sql: sql, arguments: arguments.map(\.databaseValue)), cached: true, in: db)
    }

    // MARK: Uniqueness

    /// For an object whose write broke a unique index: each constraint it breaks, with the object
    /// that already has the values.
    private func uniquenessFailures(of object: ManagedObject, _ db: Database) throws -> [ValidationFailure] {
        try UniquenessConflicts.failures(of: object, key: key(of: object), context: context, destinationKey: resolved, db)
    }
}
