import Foundation
import GRDB

/// The statements of one save, run inside its write transaction: they read only `SaveChanges`,
/// never the context's objects, so they can run on any thread. What to write is decided here, for
/// every engine; `transaction` writes it as its engine takes it.
struct SaveWriter {
    let changes: SaveChanges
    let store: PersistentStore
    let transaction: SaveTransaction
    /// The permanent ID the transaction gave each object of `changes.inserted`.
    private var permanentIDs = PermanentIDs()
    /// The values the history keeps of deleted objects, read before their rows go.
    private var tombstones: [ObjectID: [DatabaseValue]] = [:]
    /// The `UPDATE`s and `DELETE`s of the save's objects, each prepared once.
    private let statements: RowStatements

    /// What the transaction did, for the context to bring its objects in line.
    struct Result: Sendable {
        /// The permanent ID of each object of `changes.inserted`.
        let permanentIDs: PermanentIDs
        /// The derived-attribute values the save computed (on SQLite, its triggers), in the order it did.
        let derivedValues: [DerivedValueLog.Report]
    }

    /// Rolls the transaction back with the reason.
    enum Abort: Error {
        case conflicts([SaveError.Conflict])
        case validation([ValidationFailure])
    }

    private init(changes: SaveChanges, store: PersistentStore, transaction: SaveTransaction) {
        self.changes = changes
        self.store = store
        self.transaction = transaction
        statements = RowStatements(transaction)
    }

    /// Writes `changes` in `transaction`; throws `Abort` when the save must roll back.
    static func write(_ changes: SaveChanges, store: PersistentStore, in transaction: SaveTransaction) throws -> Result {
        var writer = SaveWriter(changes: changes, store: store, transaction: transaction)
        return try writer.write()
    }

    /// Writes the changes; throws `Abort` when the save must roll back.
    private mutating func write() throws -> Result {
        _ = store.derivedValues.take()  // left by an earlier write that rolled back
        try allocatePrimaryKeys()
        var derived = derivedValues()
        try derived?.readFormerOwners()
        var conflicts: [SaveError.Conflict] = []
        // A row may take values that another row of the save gives up later in it — a name passed
        // on, a deleted object replaced — so a write a unique index refuses is tried again once
        // the others are done, and fails only if it is refused still. Each pass runs the other
        // way, so a chain of rows each taking the next one's value takes two passes, not one per
        // row. Values swapped between two rows are refused both ways: a uniqueness failure.
        var refused = try attemptAll(changes.inserted.indices.map(Write.insert) + inLockOrder(changes.updated).map(Write.update), &conflicts)
        if store.tracksHistory { try readTombstones() }
        for object in inLockOrder(changes.deleted).map({ changes.deleted[$0] }) where try !delete(object) {
            conflicts.append(try conflict(for: object))
        }
        while !refused.isEmpty {
            let stillRefused = try attemptAll(refused.reversed().map(\.write), &conflicts)
            if stillRefused.count == refused.count { break }
            refused = stillRefused
        }
        if !conflicts.isEmpty { throw Abort.conflicts(conflicts) }
        var failures: [ValidationFailure] = []
        for (write, error) in refused {
            let found = try uniquenessFailures(of: row(of: write))
            // A refusal no constraint of the model explains (a primary key taken) is not the
            // user's to fix: the save fails as the database failed.
            guard !found.isEmpty else { throw error }
            failures += found
        }
        if !failures.isEmpty { throw Abort.validation(clashes(among: failures, refused: refused.map { row(of: $0.write) })) }
        for object in changes.inserted { try writeToManyChanges(of: object) }
        for object in changes.updated { try writeToManyChanges(of: object) }
        let derivedValues = try derived?.write() ?? store.derivedValues.take()
        if store.tracksHistory { try writeHistory() }
        return Result(permanentIDs: permanentIDs, derivedValues: derivedValues)
    }

    /// What computes the derived values where no trigger does; `nil` where triggers do.
    private func derivedValues() -> DerivedValueComputation? {
        guard !store.derivedAttributeRules.isEmpty else { return nil }
        let written = { (row: SaveChanges.Row) in DerivedValueComputation.WrittenRow(entity: row.entity, key: key(of: row), changedKeys: row.changedKeys) }
        var derived = DerivedValueComputation(store: store, transaction: transaction)
        (derived.inserted, derived.updated, derived.deleted) = (changes.inserted.map(written), changes.updated.map(written), changes.deleted.map(written))
        return derived
    }

    /// The indices of `rows` in the order their rows are written. An engine that locks each row
    /// it changes until the commit (a server) gets them in one order — by table, then key — so
    /// that two saves changing the same objects do not wait for each other in a circle (a
    /// deadlock, which the server ends by failing one, and the store runs again). Rows written
    /// later in a save (join tables, inverse columns) are not ordered so. An engine that locks the
    /// whole store (SQLite) gets the save's order.
    private func inLockOrder(_ rows: [SaveChanges.Row]) -> [Int] {
        guard store.engine.locksRows else { return Array(rows.indices) }
        return rows.indices.sorted { first, second in
            let (a, b) = (rows[first], rows[second])
            return a.entity.tableName != b.entity.tableName ? a.entity.tableName < b.entity.tableName : key(of: a) < key(of: b)
        }
    }

    /// One row's insert or update, by its index in `changes`.
    private enum Write {
        case insert(Int)
        case update(Int)
    }

    private enum Outcome {
        case written
        case conflict(SaveError.Conflict)
        /// A unique index refused the values.
        case refused(any Error)
    }

    private func row(of write: Write) -> SaveChanges.Row {
        switch write {
        case .insert(let index): changes.inserted[index]
        case .update(let index): changes.updated[index]
        }
    }

    /// Tries `writes` in order, collecting conflicts; the writes a unique index refused.
    private func attemptAll(_ writes: [Write], _ conflicts: inout [SaveError.Conflict]) throws -> [(write: Write, error: any Error)] {
        var refused: [(write: Write, error: any Error)] = []
        for write in writes {
            switch try attempt(write) {
            case .written: break
            case .conflict(let conflict): conflicts.append(conflict)
            case .refused(let error): refused.append((write, error))
            }
        }
        return refused
    }

    // Not `mutating`, like every step that runs once per row: the rows stay borrowed, not copied.
    private func attempt(_ write: Write) throws -> Outcome {
        var updated = true
        let refusal = try transaction.refusal(of: {
            switch write {
            case .insert(let index):
                let object = changes.inserted[index]
                try transaction.insert(object, key: permanentIDs.ids[index].primaryKey ?? 0, permanentIDs: permanentIDs)
            case .update(let index):
                updated = try update(changes.updated[index])
            }
        }, mayBeRefused: !row(of: write).entity.uniquenessConstraints.isEmpty)
        if let refusal { return .refused(refusal) }
        if !updated, case .update(let index) = write { return .conflict(try conflict(for: changes.updated[index])) }
        return .written
    }

    /// Records the save's inserts, updates (with the changed properties) and deletes as one
    /// transaction of the store's history.
    private func writeHistory() throws {
        var history = HistoryRecorder()
        for (object, id) in zip(changes.inserted, permanentIDs.ids) {
            history.record(.insert, entityNumber: object.entity.number, key: id.primaryKey ?? 0)
        }
        for object in changes.updated {
            history.recordUpdate(
                of: object.entity, key: key(of: object), properties: object.changedKeys, layout: store.historyColumns(of: object.entity))
        }
        for object in changes.deleted {
            history.record(.delete, entityNumber: object.entity.number, key: key(of: object), tombstone: tombstones[object.objectID] ?? [])
        }
        let number = try transaction.writeHistory(history, author: changes.author, contextName: changes.contextName)
        store.noteOwnHistoryTransaction(number)
        // A commit that fails after this frees the number again.
        transaction.onRollback { [store] in store.forgetOwnHistoryTransaction(number) }
    }

    /// Reads the values that the deleted objects of entities with preserved attributes leave in
    /// the history: a query per entity and few hundred objects, as on a server each is a round trip.
    private mutating func readTombstones() throws {
        let preserving = Dictionary(grouping: changes.deleted.filter { !store.historyTombstones(of: $0.entity).isEmpty }, by: \.entity.number)
        for objects in preserving.values {
            let entity = objects[0].entity
            for chunk in stride(from: 0, to: objects.count, by: 500).map({ objects[$0..<min($0 + 500, objects.count)] }) {
                let keys = chunk.map { key(of: $0).databaseValue }
                let rows = SQLFragment(sql: "\(.Z_PK) IN (\(Array(repeating: "?", count: keys.count).joined(separator: ",")))", arguments: keys)
                let values = try store.historyTombstones(of: entity).values(ofRowsIn: entity.tableName, where: rows) { [transaction] select in
                    try transaction.rows(select.sql, select.arguments)
                }
                for object in chunk { tombstones[object.objectID] = values[key(of: object)] }
            }
        }
    }

    // MARK: Primary keys

    /// Takes the keys after each hierarchy's last one, and records the new last ones.
    private mutating func allocatePrimaryKeys() throws {
        // The last key taken in each hierarchy, by root entity number.
        var lastKeys = [Int64](repeating: 0, count: store.entities.count + 1)
        // Marked by number, not gathered in a set: hashing each inserted row's root cost more than
        // the rest of its key.
        var isRoot = [Bool](repeating: false, count: lastKeys.count)
        for object in changes.inserted { isRoot[object.entity.rootNumber] = true }
        let roots = isRoot.indices.filter { isRoot[$0] }
        for root in roots {
            lastKeys[root] = try transaction.lastPrimaryKey(ofRoot: root, table: store.entity(number: root)?.tableName ?? "", dialect: store.dialect)
        }
        var temporaryKeys: [UInt64] = []
        var ids: [ObjectID] = []
        temporaryKeys.reserveCapacity(changes.inserted.count)
        ids.reserveCapacity(changes.inserted.count)
        for object in changes.inserted {
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
        for root in roots { try transaction.recordLastPrimaryKey(lastKeys[root], ofRoot: root, locksRows: store.engine.locksRows) }
        permanentIDs = PermanentIDs(temporaryKeys: temporaryKeys, permanent: ids)
    }

    private func key(of object: SaveChanges.Row) -> Int64 {
        permanentIDs.resolved(object.objectID)?.primaryKey ?? 0
    }

    // MARK: Rows

    /// Writes the changed columns if the row still has the version the context read.
    private func update(_ object: SaveChanges.Row) throws -> Bool {
        let entity = object.entity, layout = entity.rowLayout
        // Built in room the save keeps: arrays of the row's own would be two allocations per row.
        statements.clearArguments()
        for slot in object.changedSlots {
            layout.forEachStoredColumn(ofSlot: slot, value: object.attributes[slot]) { index, stored in
                statements.columns.append(index)
                statements.arguments.append(store.dialect.storedValue(stored))
            }
        }
        for relationship in entity.relationships {
            guard case .foreignKey(let column, let entityColumn, _) = relationship.storage,
                  case .toOne(let id) = object.relationships[relationship.slot],
                  !ObjectContext.same(object.relationships[relationship.slot], object.savedRelationships[relationship.slot])
            else { continue }
            let target = permanentIDs.resolved(id)
            statements.columns.append(column)
            statements.arguments.append(target?.primaryKey?.databaseValue ?? .null)
            if let entityColumn {
                statements.columns.append(entityColumn)
                statements.arguments.append(target?.entityNumber.databaseValue ?? .null)
            }
        }
        statements.arguments.append((object.version + 1).databaseValue)
        statements.arguments.append(key(of: object).databaseValue)
        statements.arguments.append(object.version.databaseValue)
        return try transaction.execute(statements.update(of: entity, columns: statements.columns), statements.arguments) == 1
    }

    /// Deletes the row if it still has the version the context read, with its join-table rows and
    /// hidden inverse references.
    private func delete(_ object: SaveChanges.Row) throws -> Bool {
        let entity = object.entity
        let key = key(of: object)
        guard try transaction.execute(statements.delete(of: entity), [key.databaseValue, object.version.databaseValue]) == 1 else { return false }
        for relationship in entity.relationships {
            switch relationship.storage {
            case .joinTable(let table, let ownColumn, _, _, _):
                try execute("DELETE FROM \(name: table) WHERE \(name: ownColumn) = ?", [key])
            case .hiddenColumn(let table, let column):
                try execute("UPDATE \(name: table) SET \(name: column) = NULL WHERE \(name: column) = ?", [key])
            default:
                break
            }
        }
        return true
    }

    private func conflict(for object: SaveChanges.Row) throws -> SaveError.Conflict {
        let current = try transaction.integer("SELECT \(.Z_OPT) FROM \(name: object.entity.tableName) WHERE \(.Z_PK) = ?", [key(of: object).databaseValue])
        return SaveError.Conflict(objectID: object.objectID, expectedVersion: object.version, storeVersion: current)
    }

    // MARK: To-many relationships

    /// Join-table rows, order keys and hidden inverse columns of the to-many relationships that
    /// changed. Order keys are spaced by 1024, as Core Data spaces them.
    private func writeToManyChanges(of object: SaveChanges.Row) throws {
        for relationship in object.entity.relationships where relationship.isToMany {
            guard case .toMany(let current) = object.relationships[relationship.slot] else { continue }
            let saved: ObjectIDList = if case .toMany(let list) = object.savedRelationships[relationship.slot] { list } else { ObjectIDList() }
            guard current != saved else { continue }
            let owner = key(of: object)
            let currentKeys = current.compactMap { permanentIDs.resolved($0)?.primaryKey }
            let savedKeys = saved.compactMap { permanentIDs.resolved($0)?.primaryKey }
            let kept = Set(currentKeys), previous = Set(savedKeys)
            let removed = savedKeys.filter { !kept.contains($0) }
            let added = currentKeys.filter { !previous.contains($0) }
            switch relationship.storage {
            case .joinTable(let table, let ownColumn, let otherColumn, let orderColumn, _):
                for key in removed {
                    try execute("DELETE FROM \(name: table) WHERE \(name: ownColumn) = ? AND \(name: otherColumn) = ?", [owner, key])
                }
                for key in added {
                    try execute(store.dialect.insertKeepingExisting(into: .name(table), columns: [ownColumn, otherColumn]), [owner, key])
                }
                if let orderColumn {
                    for (index, key) in currentKeys.enumerated() {
                        try execute(
                            "UPDATE \(name: table) SET \(name: orderColumn) = ? WHERE \(name: ownColumn) = ? AND \(name: otherColumn) = ?",
                            [(index + 1) * 1024, owner, key])
                    }
                }
            case .inverseForeignKey(let table, _, let orderColumn?):
                for (index, key) in currentKeys.enumerated() {
                    try execute("UPDATE \(name: table) SET \(name: orderColumn) = ? WHERE \(.Z_PK) = ?", [(index + 1) * 1024, key])
                }
            case .hiddenColumn(let table, let column):
                for key in removed {
                    try execute("UPDATE \(name: table) SET \(name: column) = NULL WHERE \(.Z_PK) = ? AND \(name: column) = ?", [key, owner])
                }
                for key in added {
                    try execute("UPDATE \(name: table) SET \(name: column) = ? WHERE \(.Z_PK) = ?", [owner, key])
                }
            default:
                break
            }
        }
    }

    /// Runs one statement of the transaction; the number of rows it changed.
    @discardableResult
    private func execute(_ sql: SQL, _ arguments: [any DatabaseValueConvertible]) throws -> Int {
        try transaction.execute(sql, arguments.map(\.databaseValue))
    }

    // MARK: Uniqueness

    /// The `failures` of the `refused` rows that name what to fix. A row refused only because
    /// another refused row still holds values it was giving up is "held back": its failure is
    /// left out when the rows that held it back lead to a clash, the one to fix, so that which row
    /// the engine wrote first does not change what the save reports. Rows that hold each other
    /// back in a ring (values swapped, which no order of writes applies) are all named.
    private func clashes(among failures: [ValidationFailure], refused: [SaveChanges.Row]) -> [ValidationFailure] {
        let refusedByID = Dictionary(refused.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
        /// The refused row holding the values `failure`'s row wants, if it holds them only because
        /// its own write, which gives them up, was refused.
        func holdingBack(_ failure: ValidationFailure) -> ObjectID? {
            guard case .uniquenessViolated(let id, let constraint, let holder) = failure,
                  let holding = refusedByID[holder], let wanting = refusedByID[id] else { return nil }
            let values = { (row: SaveChanges.Row) in
                UniquenessConflicts.values(of: row, for: constraint, store: store, destinationKey: permanentIDs.resolved)?.map(\.value)
            }
            return values(holding) == values(wanting) ? nil : holder
        }
        var holders: [ObjectID: [ObjectID]] = [:], clashing: Set<ObjectID> = [], heldBack: [Int: (row: ObjectID, holder: ObjectID)] = [:]
        for (index, failure) in failures.enumerated() {
            guard case .uniquenessViolated(let id, _, _) = failure else { continue }
            if let holder = holdingBack(failure) {
                holders[id, default: []].append(holder)
                heldBack[index] = (id, holder)
            } else {
                clashing.insert(id)
            }
        }
        /// Whether `start`, or a row that held it back, or one that held that row back, and so on, is `wanted`.
        func leads(from start: ObjectID, to wanted: (ObjectID) -> Bool) -> Bool {
            var visited: Set<ObjectID> = [], next = [start]
            while let row = next.popLast() {
                guard visited.insert(row).inserted else { continue }
                if wanted(row) { return true }
                next += holders[row, default: []]
            }
            return false
        }
        return failures.indices.compactMap { index in
            guard let (row, holder) = heldBack[index] else { return failures[index] }
            let inARing = leads(from: holder, to: { $0 == row })
            return inARing || !leads(from: holder, to: clashing.contains) ? failures[index] : nil
        }
    }

    /// For an object whose write broke a unique index: each constraint it breaks, with the object
    /// that already has the values.
    private func uniquenessFailures(of object: SaveChanges.Row) throws -> [ValidationFailure] {
        try UniquenessConflicts.failures(of: object, key: key(of: object), store: store, destinationKey: permanentIDs.resolved, in: transaction)
    }
}
