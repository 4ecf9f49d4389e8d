import DataModel
import Foundation
import GRDB

/// Keeps derived attributes current within a save's transaction on an engine whose store has no
/// triggers for them (a server's), as a SQLite store's triggers do: once the save's rows are written, every value that depends on them is
/// computed again, written where it changed, and reported for the contexts to show.
///
/// Values that count, sum or copy rows other saves may change at the same time are computed after
/// locking those rows, in a statement of its own: under `READ COMMITTED` isolation, a statement
/// that starts after the lock sees every save that held it, so the last of two concurrent saves
/// counts the other's rows too. Text derivations are computed in Swift, as the SQLite store's
/// functions do, so both stores fold text alike.
struct DerivedValueComputation {
    /// A row the save or batch request writes: for an update, with the properties that changed.
    struct WrittenRow {
        let entity: EntityDescription
        let key: Int64
        var changedKeys: Set<String> = []
    }

    /// The rules of the store's derived attributes, and its entities by number (from 1).
    private let rules: [DerivedAttributeRule]
    private let entities: [EntityDescription]
    let transaction: any SQLTransaction
    private let dialect: any SQLDialect
    var inserted: [WrittenRow] = []
    var updated: [WrittenRow] = []
    var deleted: [WrittenRow] = []
    /// For each aggregate rule, by index: the owners of destinations this save moves or deletes,
    /// read before it writes.
    private var formerOwners: [Int: Set<Int64>] = [:]

    init(store: PersistentStore, transaction: any SQLTransaction) {
        self.init(rules: store.derivedAttributeRules, entities: store.entities, transaction: transaction, dialect: store.dialect)
    }

    init(rules: [DerivedAttributeRule], entities: [EntityDescription], transaction: any SQLTransaction, dialect: any SQLDialect) {
        self.rules = rules
        self.entities = entities
        self.transaction = transaction
        self.dialect = dialect
    }

    private func entity(_ number: Int) -> EntityDescription? {
        entities.indices.contains(number - 1) ? entities[number - 1] : nil
    }

    /// Computes every derived value of every row again, but `now()`'s, whose past values cannot be
    /// known: what a migration does once the store has the layout of `entities`.
    static func refreshAll(of entities: [EntityDescription], in model: Model, transaction: MigrationDatabase) throws {
        let rules = DerivedAttributeRule.rules(of: entities, in: model)
        guard !rules.isEmpty else { return }
        var values = DerivedValueComputation(rules: rules, entities: entities, transaction: transaction, dialect: transaction.dialect)
        var seen: Set<String> = []
        for rule in rules where seen.insert(rule.entity.name).inserted {
            let numbers = rule.entity.subtreeNumbers
            try transaction.rows(
                "SELECT \(.Z_PK) FROM \(name: rule.entity.tableName) WHERE \(.Z_ENT) BETWEEN \(numbers.lowerBound) AND \(numbers.upperBound)", []
            ).forEach { row in
                values.inserted.append(WrittenRow(entity: rule.entity, key: row.int64(0)))
            }
        }
        _ = try values.write(stampsTime: false)
    }

    /// Reads who owns the destinations the save will move or delete, while the rows still say.
    mutating func readFormerOwners() throws {
        for (index, rule) in rules.enumerated() {
            guard case .aggregate(let relationship, let destination, _, _) = rule.source else { continue }
            let leaving = rows(deleted, of: destination) + rows(updated, of: destination).filter { $0.changedKeys.contains(relationship.inverseName ?? "") }
            formerOwners[index] = try owners(of: leaving.map(\.key), through: relationship)
        }
    }

    /// Computes the values the save's rows change, in the order of the rules; what changed.
    func write(stampsTime: Bool = true) throws -> [DerivedValueLog.Report] {
        var reports = try pass(inserted: inserted, updated: updated, formerOwners: formerOwners, stampsTime: stampsTime)
        // A derived value may read another (`total = lines.price.@sum`, `price = product.price`):
        // what a pass wrote is a change the next pass follows, as one trigger fires the next on
        // SQLite. Values are written only when they change, so the passes end; `now()` stamps
        // the save's own rows only.
        var written = reports
        for _ in rules.indices where !written.isEmpty {
            var changed: [ObjectID.Row: WrittenRow] = [:]
            for report in written {
                guard let entity = entity(report.entityNumber) else { continue }
                let row = ObjectID.Row(entityNumber: report.entityNumber, key: .permanent(report.primaryKey))
                changed[row, default: WrittenRow(entity: entity, key: report.primaryKey)].changedKeys.insert(report.attribute)
            }
            written = try pass(inserted: [], updated: Array(changed.values), formerOwners: [:], stampsTime: false)
            reports += written
        }
        return reports
    }

    /// Computes, rule after rule, the values that `inserted` and `updated` change.
    private func pass(
        inserted: [WrittenRow], updated: [WrittenRow], formerOwners: [Int: Set<Int64>], stampsTime: Bool
    ) throws -> [DerivedValueLog.Report] {
        var reports: [DerivedValueLog.Report] = []
        for (index, rule) in rules.enumerated() {
            switch rule.source {
            case .now:
                guard stampsTime else { continue }
                let saved = (rows(inserted, of: rule.entity) + rows(updated, of: rule.entity)).map(\.key)
                let now = Date().timeIntervalSinceReferenceDate.databaseValue
                reports += try update(rule, to: .placeholder, [now], rows: saved, onlyChanged: false)
            case .ownAttribute(let attribute, let column, let text):
                let keys = (rows(inserted, of: rule.entity) + rows(updated, of: rule.entity).filter { $0.changedKeys.contains(attribute.name) }).map(\.key)
                if let text {
                    reports += try transform(rule, column, of: keys, by: text)
                } else {
                    reports += try update(rule, to: .name(column), [], rows: keys)
                }
            case .destinationAttribute(let relationship, let foreignKey, let destination, let attribute, let column, let text):
                let repointed = (rows(inserted, of: rule.entity) + rows(updated, of: rule.entity).filter { $0.changedKeys.contains(relationship) }).map(\.key)
                let changedDestinations = rows(updated, of: destination).filter { $0.changedKeys.contains(attribute.name) }.map(\.key)
                reports += try copy(rule, column, of: destination, through: foreignKey, into: repointed, pointingAt: changedDestinations, text: text)
            case .aggregate(let relationship, let destination, let summed, let summedColumn):
                var owners = formerOwners[index] ?? []
                owners.formUnion((rows(inserted, of: rule.entity) + rows(updated, of: rule.entity).filter { $0.changedKeys.contains(relationship.name) }).map(\.key))
                let arriving = rows(inserted, of: destination) + rows(updated, of: destination).filter { row in
                    row.changedKeys.contains(relationship.inverseName ?? "") || summed.map { row.changedKeys.contains($0.name) } == true
                }
                owners.formUnion(try self.owners(of: arriving.map(\.key), through: relationship))
                reports += try aggregate(rule, relationship, destination, summed: summed.map { ($0, summedColumn ?? "") }, owners: owners.sorted())
            }
        }
        return reports
    }

    // MARK: Values of the row or of a to-one destination

    /// Sets the rows `keys` to their own `column` transformed by `text`, computed in Swift.
    private func transform(
        _ rule: DerivedAttributeRule, _ column: String, of keys: [Int64], by text: DerivationExpression.TextDerivation
    ) throws -> [DerivedValueLog.Report] {
        var values: [(Int64, String?)] = []
        try forEachChunk(of: keys) { list, keys in
            try transaction.rows("SELECT \(.Z_PK), \(name: column) FROM \(name: rule.entity.tableName) WHERE \(.Z_PK) IN (\(list))", keys).forEach { row in
                values.append((row.int64(0), row.databaseValue(1).textValue.map { text.applied(to: $0) }))
            }
        }
        return try update(rule, toValues: values)
    }

    /// Copies the destination's `column` (transformed by `text`) into the rows `repointed` and the
    /// rows pointing at `changedDestinations`, after locking the destinations read.
    private func copy(
        _ rule: DerivedAttributeRule, _ column: String, of destination: EntityDescription, through foreignKey: String,
        into repointed: [Int64], pointingAt changedDestinations: [Int64], text: DerivationExpression.TextDerivation?
    ) throws -> [DerivedValueLog.Report] {
        guard !repointed.isEmpty || !changedDestinations.isEmpty else { return [] }
        let table = rule.entity.tableName
        var reports: [DerivedValueLog.Report] = []
        // A destination read for a repointed row may be changing in another save: locked, it is read
        // as that save leaves it. The changed destinations are this save's, locked already.
        try forEachChunk(of: repointed) { list, keys in
            _ = try transaction.rows(
                "SELECT d.\(.Z_PK) FROM \(name: destination.tableName) d JOIN \(name: table) t ON d.\(.Z_PK) = t.\(name: foreignKey) WHERE t.\(.Z_PK) IN (\(list))" + dialect.sharingRows(of: "d"),
                keys)
        }
        let pointing = { (repointedList: SQL, destinationList: SQL) -> SQL in
            "(\(name: table).\(.Z_PK) IN (\(repointedList)) OR \(name: table).\(name: foreignKey) IN (\(destinationList)))"
        }
        let read: SQL = "(SELECT d.\(name: column) FROM \(name: destination.tableName) d WHERE d.\(.Z_PK) = \(name: table).\(name: foreignKey))"
        guard let text else {
            try forEachChunk(of: repointed, changedDestinations) { repointedList, destinationList, keys in
                reports += try update(rule, to: read, where: pointing(repointedList, destinationList), keys)
            }
            return reports
        }
        var values: [(Int64, String?)] = []
        try forEachChunk(of: repointed, changedDestinations) { repointedList, destinationList, keys in
            try transaction.rows(
                "SELECT \(name: table).\(.Z_PK), \(read) FROM \(name: table) WHERE \(pointing(repointedList, destinationList))\(entityFilter(rule.entity))", keys
            ).forEach { row in
                values.append((row.int64(0), row.databaseValue(1).textValue.map { text.applied(to: $0) }))
            }
        }
        return try update(rule, toValues: values)
    }

    // MARK: Aggregates over a to-many relationship

    /// Computes the count or sum of `owners` again, after locking them: a concurrent save adding
    /// to the same owner then computes after this one commits, and counts this one's rows.
    private func aggregate(
        _ rule: DerivedAttributeRule, _ relationship: RelationshipDescription, _ destination: EntityDescription,
        summed: (attribute: AttributeDescription, column: String)?, owners: [Int64]
    ) throws -> [DerivedValueLog.Report] {
        guard !owners.isEmpty else { return [] }
        let table = rule.entity.tableName
        let value = summed.map { dialect.total(dialect.aggregated("d.\(name: $0.column)", type: $0.attribute.type)) } ?? "COUNT(*)"
        let computed: SQL
        switch relationship.storage {
        case .inverseForeignKey(let memberTable, let column, _), .hiddenColumn(let memberTable, let column):
            computed = "(SELECT \(value) FROM \(name: memberTable) d WHERE d.\(name: column) = \(name: table).\(.Z_PK)\(entityFilter(destination, row: "d")))"
        case .joinTable(let joinTable, let ownColumn, let otherColumn, _, _):
            computed = "(SELECT \(value) FROM \(name: joinTable) j JOIN \(name: destination.tableName) d ON d.\(.Z_PK) = j.\(name: otherColumn) WHERE j.\(name: ownColumn) = \(name: table).\(.Z_PK))"
        case .foreignKey, .none:
            return []
        }
        var reports: [DerivedValueLog.Report] = []
        try forEachChunk(of: owners) { list, keys in
            _ = try transaction.rows("SELECT \(.Z_PK) FROM \(name: table) WHERE \(.Z_PK) IN (\(list)) ORDER BY \(.Z_PK)" + dialect.lockingRows, keys)
            reports += try update(rule, to: computed, where: "\(.Z_PK) IN (\(list))", keys)
        }
        return reports
    }

    /// The owners, through `relationship`, of the destination rows `keys`.
    private func owners(of keys: [Int64], through relationship: RelationshipDescription) throws -> Set<Int64> {
        var owners: Set<Int64> = []
        let select: (SQL) -> SQL
        switch relationship.storage {
        case .inverseForeignKey(let table, let column, _), .hiddenColumn(let table, let column):
            select = { "SELECT DISTINCT \(name: column) FROM \(name: table) WHERE \(.Z_PK) IN (\($0)) AND \(name: column) IS NOT NULL" }
        case .joinTable(let table, let ownColumn, let otherColumn, _, _):
            select = { "SELECT DISTINCT \(name: ownColumn) FROM \(name: table) WHERE \(name: otherColumn) IN (\($0))" }
        case .foreignKey, .none:
            return []
        }
        try forEachChunk(of: keys) { list, arguments in
            try transaction.rows(select(list), arguments).forEach { owners.insert($0.int64(0)) }
        }
        return owners
    }

    // MARK: Statements

    /// Sets the rule's column of the rows `keys` to `value` (SQL, with `arguments`); what changed.
    /// `onlyChanged`: rows that hold the value already are neither written nor reported.
    private func update(
        _ rule: DerivedAttributeRule, to value: SQL, _ arguments: [DatabaseValue], rows keys: [Int64], onlyChanged: Bool = true
    ) throws -> [DerivedValueLog.Report] {
        var reports: [DerivedValueLog.Report] = []
        try forEachChunk(of: keys) { list, keys in
            reports += try update(rule, to: value, where: "\(.Z_PK) IN (\(list))", arguments + keys, onlyChanged: onlyChanged)
        }
        return reports
    }

    /// Sets the column of the rule's rows that `condition` selects to `value`; what changed. A
    /// `value` with placeholders is written to every row, as comparing it would need them twice.
    private func update(
        _ rule: DerivedAttributeRule, to value: SQL, where condition: SQL, _ arguments: [DatabaseValue], onlyChanged: Bool = true
    ) throws -> [DerivedValueLog.Report] {
        let table = rule.entity.tableName
        let changed: SQL = onlyChanged ? " AND \(name: table).\(name: rule.column)\(dialect.isSame(false))\(value)" : ""
        return try reported(rule, transaction.rows(
            "UPDATE \(name: table) SET \(name: rule.column) = \(value) WHERE \(condition)\(entityFilter(rule.entity))\(changed) "
                + "RETURNING \(name: table).\(.Z_ENT), \(name: table).\(.Z_PK), \(name: table).\(name: rule.column)",
            arguments))
    }

    /// Sets the rule's column of each row to the text computed for it; what changed.
    private func update(_ rule: DerivedAttributeRule, toValues values: [(key: Int64, text: String?)]) throws -> [DerivedValueLog.Report] {
        let table = rule.entity.tableName, column = rule.column
        var reports: [DerivedValueLog.Report] = []
        for start in stride(from: 0, to: values.count, by: KeyParameters.runLength) {
            let chunk = values[start..<min(start + KeyParameters.runLength, values.count)]
            // Parameters in `VALUES` may be text to the engine: the key is cast back to a number.
            let values = dialect.valuesTable(rows: chunk.count, columns: ["k", "x"], alias: "v")
            reports += try reported(rule, transaction.rows(
                "UPDATE \(name: table) SET \(name: column) = v.x FROM \(values) WHERE \(name: table).\(.Z_PK) = CAST(v.k AS \(dialect.integerType))"
                    + "\(entityFilter(rule.entity)) AND \(name: table).\(name: column)\(dialect.isSame(false))v.x RETURNING \(name: table).\(.Z_ENT), \(name: table).\(.Z_PK), \(name: table).\(name: column)",
                chunk.flatMap { [$0.key.databaseValue, $0.text.databaseValue] }))
        }
        return reports
    }

    /// The reports of the rows an `UPDATE … RETURNING Z_ENT, Z_PK, value` changed.
    private func reported(_ rule: DerivedAttributeRule, _ rows: ReadRows) -> [DerivedValueLog.Report] {
        var reports: [DerivedValueLog.Report] = []
        rows.forEach { row in
            reports.append(.init(entityNumber: Int(row.int64(0)), primaryKey: row.int64(1), attribute: rule.attribute.name, value: row.databaseValue(2)))
        }
        return reports
    }

    /// ` AND <row>.Z_ENT BETWEEN …` for an entity that shares its table with others; nothing otherwise.
    private func entityFilter(_ entity: EntityDescription, row: String? = nil) -> SQL {
        guard !entity.isSoleEntityOfTable else { return "" }
        let column: SQL = row.map { "\(verbatim: $0).\(.Z_ENT)" } ?? "\(name: entity.tableName).\(.Z_ENT)"
        return " AND \(column) BETWEEN \(entity.subtreeNumbers.lowerBound) AND \(entity.subtreeNumbers.upperBound)"
    }

    // MARK: Rows and keys

    /// The rows of `list` of `entity` or its subentities.
    private func rows(_ list: [WrittenRow], of entity: EntityDescription) -> [WrittenRow] {
        list.filter { entity.subtreeNumbers.contains($0.entity.number) }
    }

    /// Calls `body` with each run of `keys` as placeholders and arguments.
    private func forEachChunk(of keys: [Int64], _ body: (SQL, [DatabaseValue]) throws -> Void) throws {
        for run in KeyParameters.runs(keys) { try body(KeyParameters.placeholders(run.count), run.map(\.databaseValue)) }
    }

    /// Calls `body` with chunks of two lists of keys, each as placeholders (`NULL` for none), and
    /// the arguments of both.
    private func forEachChunk(of first: [Int64], _ second: [Int64], _ body: (SQL, SQL, [DatabaseValue]) throws -> Void) throws {
        let count = max(first.count, second.count), length = KeyParameters.runLength
        for start in stride(from: 0, to: count, by: length) {
            let a = first[min(start, first.count)..<min(start + length, first.count)]
            let b = second[min(start, second.count)..<min(start + length, second.count)]
            let list = { (keys: ArraySlice<Int64>) -> SQL in keys.isEmpty ? "NULL" : KeyParameters.placeholders(keys.count) }
            try body(list(a), list(b), (a + b).map(\.databaseValue))
        }
    }
}

extension DatabaseValue {
    /// The text, for a value stored as text.
    var textValue: String? {
        if case .string(let text) = storage { text } else { nil }
    }
}
