import GRDB

/// The statements of a batch delete. The rows to delete are noted first (``BatchKeys``), with
/// those their Cascade rules reach; Deny rules and required inverses are checked before anything
/// changes; then the remaining objects' references are cleared, their versions moved on, and the
/// rows deleted.
struct BatchDeleteWriter {
    let context: ObjectContext
    private let targets: Targets

    private enum Targets {
        case matching(FetchPlan, limit: Int, offset: Int)
        case objectIDs([ObjectID])
    }

    /// The store holding the rows to delete.
    let store: PersistentStore

    init(context: ObjectContext, target: BatchDeleteRequest.Target) throws(BatchError) {
        self.context = context
        switch target {
        case .matching(let entityName, let predicate, let sortDescriptors, let fetchLimit, let fetchOffset, let includesSubentities):
            var fetch = FetchRequest<ManagedObject>(entityName: entityName, predicate: predicate, sortDescriptors: sortDescriptors)
            fetch.includesSubentities = includesSubentities
            do {
                let store = try context.storeFetching(entityName)
                self.store = store
                targets = .matching(try FetchPlan(fetch, store: store, coordinator: context.coordinator), limit: fetchLimit, offset: fetchOffset)
            } catch {
                throw .invalidRequest(error)
            }
        case .objectIDs(let ids):
            // Only the permanent IDs of one store name rows: the store of the first.
            let store = ids.first.flatMap(context.coordinator.persistentStore(of:)) ?? context.store
            self.store = store
            if let foreign = ids.first(where: { $0.primaryKey == nil || $0.scope.storeIdentifier != store.identifier || store.entity(number: $0.entityNumber) == nil }) {
                throw .invalidRequest(.objectNotFound(foreign))
            }
            targets = .objectIDs(ids)
        }
    }

    func write(_ transaction: SaveTransaction) throws -> BatchChanges {
        // A server computes derived values from what it deletes (on SQLite the triggers do).
        if case .matching(let plan, 0, 0) = targets, plan.isLocal, !plan.evaluatesInMemory, store.derivedAttributeRules.isEmpty,
           plan.entities.allSatisfy({ $0.relationships.allSatisfy(\.isTransient) && !keepsTombstones($0) }) {
            return try deleteDirectly(plan, transaction)
        }
        let keys = BatchKeys(transaction: transaction, dialect: store.dialect)
        try keys.clear()
        switch targets {
        case .matching(let plan, let limit, let offset):
            try keys.insertMatching(plan, limit: limit, offset: offset, store: store)
        case .objectIDs(let ids):
            for id in ids {
                guard let entity = store.entity(number: id.entityNumber), let key = id.primaryKey else { continue }
                try keys.insert(SQLFragment(
                    sql: "SELECT \(entity.rootNumber), \(.Z_PK), \(.Z_ENT) FROM \(name: entity.tableName) WHERE \(.Z_PK) = ? AND \(.Z_ENT) = ?",
                    arguments: [key.databaseValue, id.entityNumber.databaseValue]))
            }
        }
        try cascade(keys)
        let entities = try keys.entityNumbers().compactMap(store.entity(number:))
        try check(entities, transaction)
        var changes = BatchChanges()
        if !store.derivedAttributeRules.isEmpty {
            // The owners of the rows about to go, while the rows still say: locked first, so that
            // no save moves one to another owner meanwhile.
            let noted = try keys.rows()
            for root in Set(noted.map(\.root)).sorted() {
                guard let table = store.entity(number: root)?.tableName else { continue }
                _ = try transaction.rows("SELECT \(.Z_PK) FROM \(name: table) WHERE \(.Z_PK) IN (\(BatchKeys.keys(root: root))) ORDER BY \(.Z_PK)" + store.dialect.lockingRows, [])
            }
            var derived = DerivedValueComputation(store: store, transaction: transaction)
            derived.deleted = noted.compactMap { row in
                store.entity(number: row.entityNumber).map { DerivedValueComputation.WrittenRow(entity: $0, key: row.key) }
            }
            try derived.readFormerOwners()
            changes.derivedValues = derived
        }
        var touched = TouchedRows()
        for entity in entities {
            for relationship in entity.relationships where !relationship.isTransient {
                try clearReferences(to: entity, through: relationship, &touched, transaction)
            }
        }
        for (row, _) in touched.rows {
            guard let table = store.entity(number: row.entityNumber)?.tableName else { continue }
            try transaction.execute("UPDATE \(name: table) SET \(.Z_OPT) = \(.Z_OPT) + 1 WHERE \(.Z_PK) = ?", [row.key.databaseValue])
        }
        var tombstones: [ObjectID: [DatabaseValue]] = [:]
        for entity in entities where keepsTombstones(entity) {
            let rows = SQLFragment(sql: "\(.Z_PK) IN (\(BatchKeys.keys(root: entity.rootNumber, entity: entity.number)))")
            for (key, values) in try store.historyTombstones(of: entity).values(ofRowsIn: entity.tableName, where: rows, read: transaction.rows) {
                tombstones[store.objectID(key: .permanent(key), entityNumber: entity.number)] = values
            }
        }
        let deleted = try keys.rows()
        for root in Set(deleted.map(\.root)).sorted() {
            guard let table = store.entity(number: root)?.tableName else { continue }
            try transaction.execute("DELETE FROM \(name: table) WHERE \(.Z_PK) IN (\(BatchKeys.keys(root: root)))", [])
        }
        changes.deleted = deleted.map { store.objectID(key: .permanent($0.key), entityNumber: $0.entityNumber) }
        changes.tombstones = tombstones
        changes.updated = touched.rows.map { row, properties in
            (store.objectID(key: .permanent(row.key), entityNumber: row.entityNumber), properties)
        }
        return changes
    }

    /// Deletes the rows of a plan that reads only their own columns, of entities without
    /// relationships: nothing else refers to them, so their keys are read and the same condition
    /// deletes them (in the same transaction, so the same rows; cheaper than `RETURNING`, which
    /// buffers every row it returns).
    private func deleteDirectly(_ plan: FetchPlan, _ transaction: SaveTransaction) throws -> BatchChanges {
        var changes = BatchChanges()
        let select = plan.select("t0.\(.Z_PK), t0.\(.Z_ENT)", ordered: false)
        try transaction.forEachRow(select.sql, select.arguments) { row in
            changes.deleted.append(store.objectID(key: .permanent(row.int64(0)), entityNumber: Int(row.int64(1))))
        }
        var delete = SQLFragment(sql: "DELETE FROM \(name: plan.entity.tableName) AS t0")
        if let condition = plan.condition { delete = delete + " WHERE " + condition }
        try transaction.execute(delete)
        return changes
    }

    /// Whether the history keeps values of `entity`'s deleted objects, read before the rows go.
    private func keepsTombstones(_ entity: EntityDescription) -> Bool {
        store.tracksHistory && !store.historyTombstones(of: entity).isEmpty
    }

    // MARK: Delete rules

    /// Adds the destinations of Cascade relationships of the noted rows, until none is new.
    private func cascade(_ keys: BatchKeys) throws {
        let cascading = store.entities.flatMap { entity in
            entity.relationships.filter { $0.deleteRule == .cascade && !$0.isTransient }.map { (entity, $0) }
        }
        guard !cascading.isEmpty else { return }
        var added = 1
        while added > 0 {
            added = 0
            for (entity, relationship) in cascading {
                guard let destination = store.entity(named: relationship.destinationEntityName) else { continue }
                let pairs = destinationPairs(of: entity, relationship)
                added += try keys.insert(SQLFragment(sql: """
                    SELECT \(destination.rootNumber), d.\(.Z_PK), d.\(.Z_ENT) FROM \(name: destination.tableName) d WHERE d.\(.Z_PK) IN (SELECT dest FROM (\(pairs)) p)
                    """))
            }
        }
    }

    /// Refuses the delete when a Deny relationship of a deleted object still has destinations that
    /// remain, or when a remaining object would lose a required to-one (a Nullify relationship
    /// whose inverse is required).
    private func check(_ entities: [EntityDescription], _ transaction: SaveTransaction) throws {
        var failures: [ValidationFailure] = []
        for entity in entities {
            for relationship in entity.relationships where !relationship.isTransient {
                switch relationship.deleteRule {
                case .deny:
                    guard let destination = store.entity(named: relationship.destinationEntityName) else { continue }
                    let remaining: SQL = "SELECT owner, dest FROM (\(destinationPairs(of: entity, relationship))) p WHERE dest NOT IN (\(BatchKeys.keys(root: destination.rootNumber)))"
                    try transaction.rows("SELECT DISTINCT owner FROM (\(remaining)) r ORDER BY owner", []).forEach { row in
                        let id = store.objectID(key: .permanent(row.int64(0)), entityNumber: entity.number)
                        failures.append(.deleteDenied(id, relationship: relationship.name))
                    }
                case .nullify:
                    guard let inverse = inverse(of: relationship), inverse.isToOne, !inverse.isOptional else { continue }
                    for row in try remainingDestinations(of: entity, relationship, transaction) {
                        let id = store.objectID(key: .permanent(row.key), entityNumber: row.entityNumber)
                        failures.append(.missingValue(id, property: inverse.name))
                    }
                case .cascade, .noAction:
                    break
                }
            }
        }
        if !failures.isEmpty { throw BatchError.validation(failures) }
    }

    // MARK: References

    /// The rows that remain and whose relationships change, with the properties that change.
    private struct TouchedRows {
        private(set) var rows: [(row: BatchKeys.Row, properties: Set<String>)] = []
        private var positions: [BatchKeys.Row: Int] = [:]

        mutating func add(_ row: BatchKeys.Row, property: String) {
            if let position = positions[row] {
                rows[position].properties.insert(property)
            } else {
                positions[row] = rows.count
                rows.append((row, [property]))
            }
        }
    }

    /// Clears what remaining rows hold of the deleted rows of `entity` through `relationship`, as
    /// its delete rule says, and notes the remaining objects whose relationships change. Join-table
    /// rows and hidden inverse columns go whatever the rule, as when a context deletes.
    private func clearReferences(
        to entity: EntityDescription, through relationship: RelationshipDescription, _ touched: inout TouchedRows, _ transaction: SaveTransaction
    ) throws {
        let inverse = inverse(of: relationship)
        let deletedKeys = BatchKeys.keys(root: entity.rootNumber, entity: entity.number)
        switch relationship.storage {
        case .foreignKey:
            // The destination's to-many reads this row's column: it changes with the row gone.
            if let inverse, inverse.isToMany {
                for row in try remainingDestinations(of: entity, relationship, transaction) { touched.add(row, property: inverse.name) }
            } else if let inverse, relationship.deleteRule == .nullify, case .foreignKey = inverse.storage {
                try nullify(inverse, pointingAt: deletedKeys, &touched, transaction)
            }
        case .inverseForeignKey:
            if let inverse, relationship.deleteRule == .nullify { try nullify(inverse, pointingAt: deletedKeys, &touched, transaction) }
        case .joinTable(let table, let ownColumn, _, _, _):
            if let inverse {
                for row in try remainingDestinations(of: entity, relationship, transaction) { touched.add(row, property: inverse.name) }
            }
            try transaction.execute("DELETE FROM \(name: table) WHERE \(name: ownColumn) IN (\(deletedKeys))", [])
        case .hiddenColumn(let table, let column):
            try transaction.execute("UPDATE \(name: table) SET \(name: column) = NULL WHERE \(name: column) IN (\(deletedKeys))", [])
        case .none:
            break
        }
    }

    /// Sets the to-one `inverse` to nil in the remaining rows whose value is one of `deletedKeys`.
    private func nullify(
        _ inverse: RelationshipDescription, pointingAt deletedKeys: SQL, _ touched: inout TouchedRows, _ transaction: SaveTransaction
    ) throws {
        guard case .foreignKey(let column, let entityColumn, let orderColumn) = inverse.storage,
              let owner = store.entity(named: inverse.entityName) else { return }
        let columns = [column] + [entityColumn, orderColumn].compactMap { $0 }
        let condition: SQL = "\(name: owner.tableColumns[column]) IN (\(deletedKeys)) AND \(.Z_PK) NOT IN (\(BatchKeys.keys(root: owner.rootNumber)))"
        let rows = try transaction.rows("SELECT \(.Z_PK), \(.Z_ENT) FROM \(name: owner.tableName) WHERE \(condition)", [])
        guard rows.count > 0 else { return }
        rows.forEach { row in
            touched.add(BatchKeys.Row(root: owner.rootNumber, key: row.int64(0), entityNumber: Int(row.int64(1))), property: inverse.name)
        }
        let assignments = columns.map { "\(name: owner.tableColumns[$0]) = NULL" as SQL }.joined(separator: ", ")
        try transaction.execute("UPDATE \(name: owner.tableName) SET \(assignments) WHERE \(condition)", [])
    }

    // MARK: Destinations

    /// `SELECT owner, dest`: each deleted row of `entity` (`owner`) with the key of each of its
    /// destinations through `relationship` (`dest`).
    private func destinationPairs(of entity: EntityDescription, _ relationship: RelationshipDescription) -> SQL {
        let owners = BatchKeys.keys(root: entity.rootNumber, entity: entity.number)
        switch relationship.storage {
        case .foreignKey(let column, _, _):
            let column = entity.tableColumns[column]
            return "SELECT s.\(.Z_PK) AS owner, s.\(name: column) AS dest FROM \(name: entity.tableName) s WHERE s.\(.Z_PK) IN (\(owners)) AND s.\(name: column) IS NOT NULL"
        case .inverseForeignKey(let table, let column, _), .hiddenColumn(let table, let column):
            return "SELECT d.\(name: column) AS owner, d.\(.Z_PK) AS dest FROM \(name: table) d WHERE d.\(name: column) IN (\(owners))"
        case .joinTable(let table, let ownColumn, let otherColumn, _, _):
            return "SELECT j.\(name: ownColumn) AS owner, j.\(name: otherColumn) AS dest FROM \(name: table) j WHERE j.\(name: ownColumn) IN (\(owners))"
        case .none:
            return "SELECT NULL AS owner, NULL AS dest WHERE 1 = 0"
        }
    }

    /// The destinations through `relationship` of the deleted rows of `entity` that are not deleted.
    private func remainingDestinations(
        of entity: EntityDescription, _ relationship: RelationshipDescription, _ transaction: SaveTransaction
    ) throws -> [BatchKeys.Row] {
        guard let destination = store.entity(named: relationship.destinationEntityName) else { return [] }
        let root = destination.rootNumber
        let sql: SQL = """
            SELECT \(.Z_PK), \(.Z_ENT) FROM \(name: destination.tableName) WHERE \(.Z_PK) IN (SELECT dest FROM (\(destinationPairs(of: entity, relationship))) p)
            AND \(.Z_PK) NOT IN (\(BatchKeys.keys(root: root))) ORDER BY \(.Z_PK)
            """
        var rows: [BatchKeys.Row] = []
        try transaction.rows(sql, []).forEach { rows.append(BatchKeys.Row(root: root, key: $0.int64(0), entityNumber: Int($0.int64(1)))) }
        return rows
    }

    private func inverse(of relationship: RelationshipDescription) -> RelationshipDescription? {
        relationship.inverseName.flatMap { store.entity(named: relationship.destinationEntityName)?.relationship(named: $0) }
    }
}
