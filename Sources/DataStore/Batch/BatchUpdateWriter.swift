import DataModel
import GRDB

/// The statements of a batch update: the matching rows' keys are noted first (the new values may
/// stop them matching), then one `UPDATE` sets the new values and moves `Z_OPT` on, and the new
/// values are validated before the transaction commits.
struct BatchUpdateWriter {
    let context: ObjectContext
    let entity: EntityDescription
    private let plan: FetchPlan
    /// Each changed column with the SQL of its new value, which reads the row's own columns.
    private let assignments: [(column: String, value: SQLFragment)]
    private let updatedProperties: Set<String>
    /// Attributes set to constants that have rules, with the value, validated once per row.
    private let checkedConstants: [(attribute: AttributeDescription, value: AttributeValue)]
    /// Attributes set to expressions that have rules: their new values are read back and checked.
    private let checkedExpressions: [AttributeDescription]

    var store: PersistentStore { context.store(holding: entity) }

    init<Object>(context: ObjectContext, entity: EntityDescription, request: BatchUpdateRequest<Object>) throws(BatchError) {
        self.context = context
        self.entity = entity
        var fetch = FetchRequest<ManagedObject>(entityName: entity.name, predicate: request.predicate)
        fetch.includesSubentities = request.includesSubentities
        do {
            plan = try FetchPlan(fetch, store: context.store(holding: entity), coordinator: context.coordinator)
        } catch {
            throw .invalidRequest(error)
        }
        var assignments: [(String, SQLFragment)] = []
        var constants: [(AttributeDescription, AttributeValue)] = []
        var expressions: [AttributeDescription] = []
        for (name, newValue) in request.propertiesToUpdate.sorted(by: { $0.key < $1.key }) {
            guard let attribute = entity.attribute(named: name), !attribute.isTransient else {
                throw .invalidRequest(.unknownKey(entity: entity.name, key: name))
            }
            guard !attribute.isDerived else { throw .invalidRequest(.derivedKey(entity: entity.name, key: name)) }
            switch newValue {
            case .value(let value):
                guard let coerced = attribute.coerced(value) else {
                    throw .invalidRequest(.invalidValue(entity: entity.name, key: name, value: "\(value)"))
                }
                attribute.forEachStoredColumn(of: coerced) { index, stored in
                    assignments.append((entity.tableColumns[index], .bound(context.store.dialect.storedValue(stored))))
                }
                if attribute.hasValidationRules { constants.append((attribute, coerced)) }
            case .expression(let expression):
                guard let column = attribute.columnName, let cast = Self.numericCast(attribute.type, context.store.dialect) else {
                    throw .invalidRequest(.invalidValue(entity: entity.name, key: name, value: "\(expression) (expressions set numeric attributes)"))
                }
                let value = try Self.compile(expression, entity: entity, context.store.dialect)
                assignments.append((column, cast(value)))
                if attribute.hasValidationRules { expressions.append(attribute) }
            }
        }
        self.assignments = assignments
        updatedProperties = Set(request.propertiesToUpdate.keys)
        checkedConstants = constants
        checkedExpressions = expressions
    }

    func write(_ transaction: SaveTransaction) throws -> BatchChanges {
        guard !assignments.isEmpty else { return BatchChanges() }
        let keys = BatchKeys(transaction: transaction, dialect: store.dialect)
        try keys.clear()
        try keys.insertMatching(plan, store: store)
        let rows = try keys.rows(root: entity.rootNumber)
        guard !rows.isEmpty else { return BatchChanges() }
        let set = SQLFragment.joined(assignments.map { "\(name: $0.column) = " + $0.value }, separator: ", ")
        let update: SQLFragment = "UPDATE \(name: entity.tableName) SET " + set + ", \(.Z_OPT) = \(.Z_OPT) + 1"
        let all = update + SQL(" WHERE \(.Z_PK) IN (\(BatchKeys.keys(root: entity.rootNumber)))")
        if try transaction.refusal(of: { try transaction.execute(all) }, mayBeRefused: !entity.uniquenessConstraints.isEmpty) != nil {
            throw BatchError.validation(try uniquenessFailures(rows, update: update, transaction))
        }
        let ids = rows.map { store.objectID(key: .permanent($0.key), entityNumber: $0.entityNumber) }
        var failures: [ValidationFailure] = []
        for id in ids {
            for (attribute, value) in checkedConstants { failures += context.validate(value, of: attribute, in: id) }
        }
        failures += try expressionFailures(transaction)
        guard failures.isEmpty else { throw BatchError.validation(failures) }
        var changes = BatchChanges()
        changes.updated = ids.map { ($0, updatedProperties) }
        return changes
    }

    /// Reads back the values the expressions computed for the attributes with rules, and checks them.
    private func expressionFailures(_ transaction: SaveTransaction) throws -> [ValidationFailure] {
        guard !checkedExpressions.isEmpty else { return [] }
        let columns = SQL.names(checkedExpressions.compactMap(\.columnName))
        let rows = try transaction.rows("""
            SELECT \(.Z_PK), \(.Z_ENT), \(columns) FROM \(name: entity.tableName)
            WHERE \(.Z_PK) IN (\(BatchKeys.keys(root: entity.rootNumber))) ORDER BY \(.Z_PK)
            """, [])
        var failures: [ValidationFailure] = []
        rows.forEach { row in
            let id = store.objectID(key: .permanent(row.int64(0)), entityNumber: Int(row.int64(1)))
            for (offset, attribute) in checkedExpressions.enumerated() {
                let value = AttributeValue(row.databaseValue(Int32(offset + 2)), as: attribute.type)
                failures += context.validate(value, of: attribute, in: id)
            }
        }
        return failures
    }

    /// After the `UPDATE` broke a unique index: updates the rows one at a time to find which, and
    /// with which existing object, each breaks a uniqueness constraint.
    private func uniquenessFailures(_ rows: [BatchKeys.Row], update: SQLFragment, _ transaction: SaveTransaction) throws -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        for row in rows {
            let one = update + " WHERE \(.Z_PK) = " + .bound(row.key.databaseValue)
            if try transaction.refusal(of: { try transaction.execute(one) }, mayBeRefused: true) != nil {
                let id = store.objectID(key: .permanent(row.key), entityNumber: row.entityNumber)
                failures += try conflicts(of: id, transaction)
            }
        }
        return failures
    }

    /// The constraints the new values of the row `id` break, each with the row that has them.
    private func conflicts(of id: ObjectID, _ transaction: SaveTransaction) throws -> [ValidationFailure] {
        let newValues = Dictionary(assignments.map { ($0.column, $0.value) }, uniquingKeysWith: { first, _ in first })
        var failures: [ValidationFailure] = []
        for constraint in entity.uniquenessConstraints {
            let columns = constraint.compactMap { name -> String? in
                if let index = entity.attribute(named: name)?.columnIndex { return entity.tableColumns[index] }
                if case .foreignKey(let index, _, _)? = entity.relationship(named: name)?.storage { return entity.tableColumns[index] }
                return nil
            }
            guard columns.count == constraint.count else { continue }
            let values = SQLFragment.joined(columns.map { newValues[$0] ?? SQLFragment(sql: .name($0)) }, separator: ", ")
            let select = "SELECT " + values + " FROM \(name: entity.tableName) WHERE \(.Z_PK) = " + .bound((id.primaryKey ?? 0).databaseValue)
            var wanted: [DatabaseValue] = []
            try transaction.rows(select).forEach { row in wanted = (0..<columns.count).map { row.databaseValue(Int32($0)) } }
            guard !wanted.isEmpty, !wanted.contains(.null) else { continue }
            let condition = columns.map { "\(name: $0) = ?" as SQL }.joined(separator: " AND ")
            try transaction.rows(
                "SELECT \(.Z_PK), \(.Z_ENT) FROM \(name: entity.tableName) WHERE \(condition) AND \(.Z_PK) != ? LIMIT 1", wanted + [(id.primaryKey ?? 0).databaseValue]
            ).forEach { other in
                let conflicting = store.objectID(key: .permanent(other.int64(0)), entityNumber: Int(other.int64(1)))
                failures.append(.uniquenessViolated(id, constraint: constraint, conflictingObject: conflicting))
            }
        }
        return failures
    }

    // MARK: Expressions

    /// How a numeric attribute's computed value is cast to its type, as SQLite casts: integers
    /// truncated toward zero, reals in double precision; `nil` for other attributes.
    private static func numericCast(_ type: AttributeType, _ dialect: any SQLDialect) -> ((SQLFragment) -> SQLFragment)? {
        switch type {
        case .integer16, .integer32, .integer64: dialect.integerCast
        case .double, .float, .decimal: { "CAST(" + $0 + " AS \(dialect.realType))" }
        default: nil
        }
    }

    /// Whether `expression` computes an integer: integer constants and attributes, and `+ - * /`
    /// of integers.
    private static func isIntegral(_ expression: ObjectExpression, _ entity: EntityDescription) -> Bool {
        switch expression {
        case .constant(let value): if case .double = value { false } else if case .decimal = value { false } else { true }
        case .key(let name): entity.attribute(named: name).map { [.integer16, .integer32, .integer64].contains($0.type) } ?? false
        case .arithmetic(_, let lhs, let rhs): isIntegral(lhs, entity) && isIntegral(rhs, entity)
        }
    }

    /// The SQL of `expression` over the columns of the row being updated.
    private static func compile(_ expression: ObjectExpression, entity: EntityDescription, _ dialect: any SQLDialect) throws(BatchError) -> SQLFragment {
        switch expression {
        case .constant(let value):
            switch value {
            case .double: return .bound(value.databaseValue)
            // Exact numbers where an engine would type a parameter as what it meets (a `smallint`
            // column would overflow); SQLite computes in 64 bits or reals.
            case .null, .integer, .decimal:
                return dialect.exactNumber(.bound(value.databaseValue))
            default: throw .invalidRequest(.invalidValue(entity: entity.name, key: "\(expression)", value: "a non-numeric constant"))
            }
        case .key(let name):
            guard let attribute = entity.attribute(named: name), let column = attribute.columnName, numericCast(attribute.type, dialect) != nil else {
                throw .invalidRequest(.unknownKeyPath(entity: entity.name, keyPath: "\(name) (expressions read the object's own numeric attributes)"))
            }
            let isInteger = [.integer16, .integer32, .integer64].contains(attribute.type)
            return isInteger ? dialect.exactNumber(SQLFragment(sql: .name(column))) : SQLFragment(sql: .name(column))
        case .arithmetic(let arithmeticOperator, let lhs, let rhs):
            let left = try compile(lhs, entity: entity, dialect), right = try compile(rhs, entity: entity, dialect)
            // As predicates divide, and Foundation: integers as integers (`7 / 2` is 3), else as
            // reals. By zero, `NULL`, as in SQLite.
            if arithmeticOperator == .divide {
                guard isIntegral(lhs, entity), isIntegral(rhs, entity) else {
                    return "(CAST(" + left + " AS \(dialect.realType)) / " + dialect.divisor(right) + ")"
                }
                return dialect.operation(.divide, [left, right], inReals: false)
            }
            return "(" + left + SQL(verbatim: " \(arithmeticOperator.rawValue) ") + right + ")"
        }
    }
}
