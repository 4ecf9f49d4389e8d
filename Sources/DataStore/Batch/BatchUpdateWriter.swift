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

    private var store: PersistentStore { context.store }

    init<Object>(context: ObjectContext, entity: EntityDescription, request: BatchUpdateRequest<Object>) throws(BatchError) {
        self.context = context
        self.entity = entity
        var fetch = FetchRequest<ManagedObject>(entityName: entity.name, predicate: request.predicate)
        fetch.includesSubentities = request.includesSubentities
        do {
            plan = try FetchPlan(fetch, store: context.store)
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
                    assignments.append((entity.tableColumns[index], .bound(stored.databaseValue)))
                }
                if attribute.hasValidationRules { constants.append((attribute, coerced)) }
            case .expression(let expression):
                guard let column = attribute.columnName, let cast = Self.numericCast(attribute.type) else {
                    throw .invalidRequest(.invalidValue(entity: entity.name, key: name, value: "\(expression) (expressions set numeric attributes)"))
                }
                let value = try Self.compile(expression, entity: entity)
                assignments.append((column, "CAST(" + value + " AS \(cast))"))
                if attribute.hasValidationRules { expressions.append(attribute) }
            }
        }
        self.assignments = assignments
        updatedProperties = Set(request.propertiesToUpdate.keys)
        checkedConstants = constants
        checkedExpressions = expressions
    }

    func write(_ db: Database) throws -> BatchChanges {
        guard !assignments.isEmpty else { return BatchChanges() }
        let keys = BatchKeys(db)
        try keys.clear()
        try keys.insert(plan.select("\(entity.rootNumber), t0.Z_PK, t0.Z_ENT", ordered: false), log: store)
        let rows = try keys.rows(root: entity.rootNumber)
        guard !rows.isEmpty else { return BatchChanges() }
        let set = SQLFragment.joined(assignments.map { "\($0.column) = " + $0.value }, separator: ", ")
        let update = "UPDATE \(entity.tableName) SET " + set + ", Z_OPT = Z_OPT + 1"
        do {
            try store.execute(update + " WHERE Z_PK IN (" + BatchKeys.keys(root: entity.rootNumber) + ")", in: db)
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw BatchError.validation(try uniquenessFailures(rows, update: update, db))
        }
        let ids = rows.map { store.objectID(key: .permanent($0.key), entityNumber: $0.entityNumber) }
        var failures: [ValidationFailure] = []
        for id in ids {
            for (attribute, value) in checkedConstants { failures += context.validate(value, of: attribute, in: id) }
        }
        failures += try expressionFailures(db)
        guard failures.isEmpty else { throw BatchError.validation(failures) }
        var changes = BatchChanges()
        changes.updated = ids.map { ($0, updatedProperties) }
        return changes
    }

    /// Reads back the values the expressions computed for the attributes with rules, and checks them.
    private func expressionFailures(_ db: Database) throws -> [ValidationFailure] {
        guard !checkedExpressions.isEmpty else { return [] }
        let columns = checkedExpressions.compactMap(\.columnName).joined(separator: ", ")
        let rows = try Row.fetchCursor(db, sql: """
            SELECT Z_PK, Z_ENT, \(columns) FROM \(entity.tableName)
            WHERE Z_PK IN (\(BatchKeys.keys(root: entity.rootNumber))) ORDER BY Z_PK
            """)
        var failures: [ValidationFailure] = []
        while let row = try rows.next() {
            let id = store.objectID(key: .permanent(row[0]), entityNumber: row[1])
            for (offset, attribute) in checkedExpressions.enumerated() {
                let value = AttributeValue(row[offset + 2] as DatabaseValue, as: attribute.type)
                failures += context.validate(value, of: attribute, in: id)
            }
        }
        return failures
    }

    /// After the `UPDATE` broke a unique index: updates the rows one at a time to find which, and
    /// with which existing object, each breaks a uniqueness constraint.
    private func uniquenessFailures(_ rows: [BatchKeys.Row], update: SQLFragment, _ db: Database) throws -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        for row in rows {
            do {
                try store.execute(update + " WHERE Z_PK = " + .bound(row.key.databaseValue), cached: true, in: db)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                let id = store.objectID(key: .permanent(row.key), entityNumber: row.entityNumber)
                failures += try conflicts(of: id, db)
            }
        }
        return failures
    }

    /// The constraints the new values of the row `id` break, each with the row that has them.
    private func conflicts(of id: ObjectID, _ db: Database) throws -> [ValidationFailure] {
        let newValues = Dictionary(assignments.map { ($0.column, $0.value) }, uniquingKeysWith: { first, _ in first })
        var failures: [ValidationFailure] = []
        for constraint in entity.uniquenessConstraints {
            let columns = constraint.compactMap { name -> String? in
                if let index = entity.attribute(named: name)?.columnIndex { return entity.tableColumns[index] }
                if case .foreignKey(let index, _, _)? = entity.relationship(named: name)?.storage { return entity.tableColumns[index] }
                return nil
            }
            guard columns.count == constraint.count else { continue }
            let values = SQLFragment.joined(columns.map { newValues[$0] ?? SQLFragment(sql: $0) }, separator: ", ")
            let select = "SELECT " + values + " FROM \(entity.tableName) WHERE Z_PK = " + .bound((id.primaryKey ?? 0).databaseValue)
            guard let row = try Row.fetchOne(db, sql: select.sql, arguments: StatementArguments(select.arguments)) else { continue }
            let wanted = (0..<columns.count).map { row[$0] as DatabaseValue }
            guard !wanted.contains(.null) else { continue }
            let condition = columns.map { "\($0) = ?" }.joined(separator: " AND ")
            if let other = try Row.fetchOne(
                db, sql: "SELECT Z_PK, Z_ENT FROM \(entity.tableName) WHERE \(condition) AND Z_PK != ? LIMIT 1",
                arguments: StatementArguments(wanted + [(id.primaryKey ?? 0).databaseValue]))
            {
                failures.append(.uniquenessViolated(id, constraint: constraint, conflictingObject: store.objectID(key: .permanent(other[0]), entityNumber: other[1])))
            }
        }
        return failures
    }

    // MARK: Expressions

    /// The type a numeric attribute's computed value is cast to; `nil` for other attributes.
    private static func numericCast(_ type: AttributeType) -> String? {
        switch type {
        case .integer16, .integer32, .integer64: "INTEGER"
        case .double, .float, .decimal: "REAL"
        default: nil
        }
    }

    /// The SQL of `expression` over the columns of the row being updated.
    private static func compile(_ expression: ObjectExpression, entity: EntityDescription) throws(BatchError) -> SQLFragment {
        switch expression {
        case .constant(let value):
            switch value {
            case .null, .integer, .double, .decimal: return .bound(value.databaseValue)
            default: throw .invalidRequest(.invalidValue(entity: entity.name, key: "\(expression)", value: "a non-numeric constant"))
            }
        case .key(let name):
            guard let attribute = entity.attribute(named: name), let column = attribute.columnName, numericCast(attribute.type) != nil else {
                throw .invalidRequest(.unknownKeyPath(entity: entity.name, keyPath: "\(name) (expressions read the object's own numeric attributes)"))
            }
            return SQLFragment(sql: column)
        case .arithmetic(let arithmeticOperator, let lhs, let rhs):
            let left = try compile(lhs, entity: entity), right = try compile(rhs, entity: entity)
            // Real division, as `NSExpression` divides: `7 / 2` is 3.5, not 3.
            if arithmeticOperator == .divide { return "(CAST(" + left + " AS REAL) / " + right + ")" }
            return "(" + left + " \(arithmeticOperator.rawValue) " + right + ")"
        }
    }
}
