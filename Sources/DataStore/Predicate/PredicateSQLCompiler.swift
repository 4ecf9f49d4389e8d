import DataModel
import GRDB

/// SQL text with `?` placeholders and the values they stand for, in order. Values are never
/// spliced into the text.
package struct SQLFragment: Sendable {
    package var sql: SQL
    package var arguments: [DatabaseValue] = []

    package init(sql: SQL, arguments: [DatabaseValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    package static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(sql: lhs.sql + rhs.sql, arguments: lhs.arguments + rhs.arguments)
    }

    package static func + (lhs: SQLFragment, rhs: SQL) -> SQLFragment {
        SQLFragment(sql: lhs.sql + rhs, arguments: lhs.arguments)
    }

    package static func + (lhs: SQL, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(sql: lhs + rhs.sql, arguments: rhs.arguments)
    }

    package mutating func append(_ other: SQLFragment) {
        sql.append(other.sql)
        arguments += other.arguments
    }

    package static func bound(_ value: DatabaseValue) -> SQLFragment {
        SQLFragment(sql: .placeholder, arguments: [value])
    }

    /// The fragments joined by `separator`.
    package static func joined(_ fragments: [SQLFragment], separator: SQL) -> SQLFragment {
        var joined = SQLFragment(sql: SQL())
        joined.arguments.reserveCapacity(fragments.count)
        for (index, fragment) in fragments.enumerated() {
            if index > 0 { joined.sql.append(separator) }
            joined.sql.append(fragment.sql)
            joined.arguments += fragment.arguments
        }
        return joined
    }
}

/// Compiles resolved predicates and sort keys to SQLite in Core Data's style: the fetched table is
/// `t0`; to-one key paths become `LEFT OUTER JOIN`s `t1`, `t2`…; to-many quantifiers become
/// `EXISTS` subqueries and aggregates correlated scalar subqueries. Every predicate compiles to an
/// expression that is 0 or 1 where it matters (`NOT` never sees `NULL`), so SQL and in-memory
/// evaluation agree.
struct PredicateSQLCompiler {
    let store: PersistentStore
    /// Per scope: its table alias and the joins its key paths added.
    private var frames: [Frame]
    private var nextAlias = 1
    /// Whether anything compiled so far reads rows other than the fetched one (a join or a subquery).
    private(set) var readsOtherRows = false

    private struct Frame {
        var alias: String
        var joins: [SQL] = []
        /// The alias of each joined to-one path, by its relationship names.
        var joined: [String: String] = [:]
    }

    init(store: PersistentStore) {
        self.store = store
        frames = [Frame(alias: "t0")]
    }

    private var dialect: any SQLDialect { store.dialect }

    /// A condition that always holds or never does.
    private func truth(_ value: Bool) -> SQLFragment { SQLFragment(sql: dialect.truth(value)) }

    /// The `LEFT OUTER JOIN`s the fetched table needs, each with a leading space.
    var rootJoins: SQL { frames[0].joins.map { " " + $0 }.joined(separator: "") }

    mutating func compile(_ predicate: ResolvedPredicate) -> SQLFragment {
        switch predicate {
        case .constant(let value): return truth(value)
        case .not(let predicate): return "NOT COALESCE(" + compile(predicate) + ", " + truth(false) + ")"
        case .and(let terms): return terms.isEmpty ? truth(true) : "(" + .joined(terms.map { compile($0) }, separator: " AND ") + ")"
        case .or(let terms): return terms.isEmpty ? truth(false) : "(" + .joined(terms.map { compile($0) }, separator: " OR ") + ")"
        case .compare(let lhs, let comparisonOperator, let rhs, let options):
            return compare(lhs, comparisonOperator, rhs, options)
        case .quantified(let quantifier, let collection, let predicate):
            let source = enter(collection)
            let inner = compile(predicate)
            let from = leave(source)
            switch quantifier {
            case .direct, .any: return "EXISTS (SELECT 1 FROM " + from + " AND " + inner + ")"
            case .none: return "NOT EXISTS (SELECT 1 FROM " + from + " AND " + inner + ")"
            case .all: return "NOT EXISTS (SELECT 1 FROM " + from + " AND NOT COALESCE(" + inner + ", " + truth(false) + "))"
            }
        }
    }

    /// The column of an attribute at the end of a to-one path, joining what it needs.
    mutating func column(_ path: ResolvedPath, _ attribute: AttributeDescription) -> SQL {
        guard let column = attribute.columnName else { return "NULL" }
        return "\(verbatim: alias(of: path)).\(name: column)"
    }

    /// The `Z_PK` and `Z_ENT` columns of the object at the end of a to-one path, joining its table.
    mutating func objectColumns(_ path: ResolvedPath) -> (key: SQL, entity: SQL) {
        let alias = alias(of: path)
        return ("\(verbatim: alias).\(.Z_PK)", "\(verbatim: alias).\(.Z_ENT)")
    }

    // MARK: Comparisons

    private mutating func compare(_ lhs: ResolvedExpression, _ comparisonOperator: ComparisonOperator, _ rhs: ResolvedExpression, _ options: StringOptions) -> SQLFragment {
        // An engine may read a UUID constant as the UUID column it meets only in its text form.
        let comparesUUIDs = dialect.comparesUUIDsAsText && (lhs.isUUIDAttribute || rhs.isUUIDAttribute)
        let (lhs, rhs) = comparesUUIDs ? (lhs.withUUIDsAsText, rhs.withUUIDsAsText) : (lhs, rhs)
        if case .objectValue = lhs { return compareObjects(rhs, comparisonOperator, lhs) }
        if case .objectValue = rhs { return compareObjects(lhs, comparisonOperator, rhs) }
        if case .object(let left) = lhs, case .object(let right) = rhs { return compareObjectPaths(left, comparisonOperator, right) }

        if comparisonOperator.isStringOperator {
            let isConstant = if case .value = rhs { true } else { false }
            let code = SQLFragment(sql: "\(StoreFunctions.textOperatorCode(comparisonOperator, options, patternIsFolded: isConstant))")
            return "DSTEXT(" + code + ", " + expression(lhs) + ", " + expression(rhs) + ")"
        }
        let left = expression(lhs, folding: options)
        switch comparisonOperator {
        case .equal, .notEqual:
            let right = expression(rhs, folding: options)
            if case .value(let value) = rhs, value.isNull { return left + (comparisonOperator == .equal ? " IS NULL" : " IS NOT NULL") }
            if case .value(let value) = lhs, value.isNull { return right + (comparisonOperator == .equal ? " IS NULL" : " IS NOT NULL") }
            // `=` where one side is a non-null constant (it can use an index); `IS` otherwise, so nil equals nil.
            let isConstant = { (expression: ResolvedExpression) in if case .value = expression { true } else { false } }
            let equal = isConstant(lhs) || isConstant(rhs) ? " = " : dialect.isSame(true)
            return left + (comparisonOperator == .equal ? equal : dialect.isSame(false)) + right
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            return left + SQL(verbatim: " \(comparisonOperator.rawValue) ") + expression(rhs, folding: options)
        case .between:
            guard case .list(let bounds) = rhs, bounds.count == 2 else { return truth(false) }
            return left + " BETWEEN " + expression(bounds[0], folding: options) + " AND " + expression(bounds[1], folding: options)
        case .in:
            if case .fetched(let fetch) = rhs { return membership(lhs, left, fetch, folding: options) }
            guard case .list(let elements) = rhs else { return truth(false) }
            let nonNull = elements.filter { if case .value(let value) = $0 { !value.isNull } else { true } }
            let matchesNull = nonNull.count < elements.count
            guard !nonNull.isEmpty else { return matchesNull ? "(" + left + " IS NULL)" : truth(false) }
            // Built in place: the list may hold hundreds of placeholders.
            var test = SQLFragment(sql: "(")
            test.append(left)
            test.sql.append(" IN (")
            test.append(list(nonNull, folding: options))
            test.append(matchesNull ? ") OR " + left + " IS NULL)" : SQLFragment(sql: "))"))
            return test
        case .beginsWith, .endsWith, .contains, .like, .matches:
            return truth(false)
        }
    }

    /// An object path against an object constant: keys compare only within one table.
    private mutating func compareObjects(_ path: ResolvedExpression, _ comparisonOperator: ComparisonOperator, _ constant: ResolvedExpression) -> SQLFragment {
        guard case .object(let objectPath) = path, case .objectValue(let id) = constant else {
            return truth(comparisonOperator == .notEqual)
        }
        let key = objectKey(objectPath)
        let isEqual = comparisonOperator == .equal
        guard let id else { return key + (isEqual ? " IS NULL" : " IS NOT NULL") }
        // A temporary ID or an object of another table is no row's value here.
        guard let primaryKey = id.primaryKey, store.entity(named: id.entityName)?.tableName == objectPath.end.tableName else {
            return truth(!isEqual)
        }
        return key + (isEqual ? " = " : dialect.isSame(false)) + .bound(primaryKey.databaseValue)
    }

    private mutating func compareObjectPaths(_ lhs: ResolvedPath, _ comparisonOperator: ComparisonOperator, _ rhs: ResolvedPath) -> SQLFragment {
        let left = objectKey(lhs), right = objectKey(rhs)
        let same: SQLFragment = lhs.end.tableName == rhs.end.tableName
            ? left + dialect.isSame(true) + right
            : "(" + left + " IS NULL AND " + right + " IS NULL)"
        return comparisonOperator == .equal ? same : "NOT " + same
    }

    // MARK: Expressions

    /// The elements, `, ` between them. Constants go in as placeholders and their values, with no
    /// fragment each: a list of keys may hold hundreds.
    private mutating func list(_ elements: [ResolvedExpression], folding options: StringOptions) -> SQLFragment {
        let values: [DatabaseValue] = options.isEmpty
            ? elements.compactMap { element -> DatabaseValue? in if case .value(let value) = element { value } else { nil } } : []
        guard values.count == elements.count else {
            return .joined(elements.map { expression($0, folding: options) }, separator: ", ")
        }
        var list = SQLFragment(sql: SQL(), arguments: values)
        list.sql.appendPlaceholders(count: values.count)
        return list
    }

    private mutating func expression(_ expression: ResolvedExpression, folding options: StringOptions = []) -> SQLFragment {
        switch expression {
        case .value(let value):
            guard !options.isEmpty, case .string(let text) = value.storage else { return .bound(value) }
            return .bound(TextMatching.fold(text, options).databaseValue)
        case .list(let elements):
            return "(" + list(elements, folding: options) + ")"
        case .objectValue(let id):
            return .bound(id?.primaryKey?.databaseValue ?? .null)
        case .object(let path):
            return objectKey(path)
        case .attribute(let path, let attribute):
            let column = SQLFragment(sql: self.column(path, attribute))
            return options.isEmpty ? column : "DSFOLD(" + column + ", \(options.rawValue))"
        case .aggregate(let function, let collection, let value):
            let source = enter(collection)
            let selected: SQL
            switch (function, value) {
            case (.count, _), (_, nil): selected = "COUNT(*)"
            case (let function, let (path, attribute)?):
                let value = dialect.aggregated(column(path, attribute), type: attribute.type)
                selected = switch function {
                case .sum: dialect.total(value)
                case .average: "AVG(\(value))"
                case .minimum: "MIN(\(value))"
                case .maximum: "MAX(\(value))"
                case .count: "COUNT(*)"
                }
            }
            let value = "(SELECT \(selected) FROM " + leave(source) + ")"
            // `@min`/`@max` of text compared with `[c]`/`[d]`: the extreme value folded, as in memory.
            return options.isEmpty ? value : "DSFOLD(" + value + ", \(options.rawValue))"
        case .subqueryCount(let collection, let predicate):
            let source = enter(collection)
            let inner = compile(predicate)
            return "(SELECT COUNT(*) FROM " + leave(source) + " AND " + inner + ")"
        case .operation(let function, let operands, let inReals):
            return dialect.operation(function, operands.map { numericOperand($0) }, inReals: inReals)
        case .function(let function, let arguments):
            // SQLite's connections compute the rest with the runtime's own code; a server judges it in memory.
            let call = "DSFUNCTION(\(StoreFunctions.code(of: function))" + .joined(arguments.map { ", " + self.expression($0) }, separator: "") + ")"
            return options.isEmpty ? call : "DSFOLD(" + call + ", \(options.rawValue))"
        case .numberText(let number):
            // SQLite's connections write it with the runtime's own code; a server judges it in memory.
            let call = "DSNUMBERTEXT(" + numericOperand(number) + ")"
            return options.isEmpty ? call : "DSFOLD(" + call + ", \(options.rawValue))"
        case .conditional(let condition, let whenTrue, let whenFalse):
            let value = "(CASE WHEN " + compile(condition) + " THEN " + numericOperand(whenTrue) + " ELSE " + numericOperand(whenFalse) + " END)"
            return options.isEmpty ? value : "DSFOLD(" + value + ", \(options.rawValue))"
        case .fetched(let fetch):
            let value = "(" + Self.subquery(fetch, store: store) + ")"
            return options.isEmpty ? value : "DSFOLD(" + value + ", \(options.rawValue))"
        }
    }

    // MARK: Fetches

    /// `left IN (SELECT …)`: the value or object `lhs` (compiled as `left`) among a fetch's results.
    private mutating func membership(_ lhs: ResolvedExpression, _ left: SQLFragment, _ fetch: ResolvedFetch, folding options: StringOptions) -> SQLFragment {
        // Objects compare by primary key, which is unique within a table only.
        if fetch.isObjects, case .object(let path) = lhs, path.end.tableName != fetch.objectTable { return truth(false) }
        readsOtherRows = true
        return "(" + left + " IN (" + Self.subquery(fetch, store: store, folding: options) + "))"
    }

    /// The `SELECT` that gives a fetch's results: primary keys of the matching objects, their count,
    /// or a value of each (an aggregate of it per group), without `NULL`s, which match nothing.
    /// It reads no row of the statement around it, so its aliases may repeat that statement's.
    static func subquery(_ fetch: ResolvedFetch, store: PersistentStore, folding options: StringOptions = []) -> SQLFragment {
        var compiler = PredicateSQLCompiler(store: store)
        let dialect = store.dialect
        let condition = compiler.compile(fetch.predicate)
        var selected: SQLFragment
        var groups: [SQLFragment] = []
        var nonNull: SQLFragment?
        var aggregates = false
        switch fetch.selection {
        case .objects:
            selected = SQLFragment(sql: "t0.\(.Z_PK)")
        case .count:
            selected = SQLFragment(sql: "COUNT(*)")
        case .value(let value, let function, let groupedBy):
            let column = compiler.expression(value)
            let type = if case .attribute(_, let attribute) = value { attribute.type } else { AttributeType.integer64 }
            func aggregated(_ column: SQLFragment) -> SQLFragment { SQLFragment(sql: dialect.aggregated(column.sql, type: type), arguments: column.arguments) }
            switch function {
            case nil: selected = column
            case .count?: selected = "COUNT(" + column + ")"
            // A sum or mean as a real on every engine (a server's of integers is `numeric`), which
            // memory reads as the SQL compares it.
            case .sum?: selected = SQLFragment(sql: "CAST(\(dialect.total(aggregated(column).sql)) AS \(dialect.realType))", arguments: column.arguments)
            case .average?: selected = "CAST(AVG(" + aggregated(column) + ") AS \(dialect.realType))"
            case .minimum?: selected = "MIN(" + aggregated(column) + ")"
            case .maximum?: selected = "MAX(" + aggregated(column) + ")"
            }
            // The extreme of Booleans, read as integers, is a Boolean again (a server tells them apart).
            if type == .boolean, function == .minimum || function == .maximum { selected = "CAST(" + selected + " AS BOOLEAN)" }
            if !options.isEmpty { selected = "DSFOLD(" + selected + ", \(options.rawValue))" }
            groups = groupedBy.map { compiler.expression($0) }
            aggregates = function != nil
            if !fetch.isScalar { nonNull = selected + " IS NOT NULL" }
        }
        var statement = "SELECT " + selected + SQLFragment(sql: " FROM \(name: fetch.entity.tableName) t0" + compiler.rootJoins + " WHERE ")
        if let filter = fetch.entity.rowFilter(includesSubentities: fetch.includesSubentities) { statement.append(SQLFragment(sql: filter + " AND ")) }
        statement.append(condition)
        if !groups.isEmpty { statement.append(" GROUP BY " + SQLFragment.joined(groups, separator: ", ")) }
        // An aggregate's `NULL` is known after grouping (of all rows, when there are no groups).
        if let nonNull { statement.append((aggregates ? " HAVING " : " AND ") + nonNull) }
        return statement
    }

    /// An operand of arithmetic or of a `TERNARY`: a Boolean attribute as the integer it is in
    /// SQLite (a server keeps Booleans of their own type).
    private mutating func numericOperand(_ operand: ResolvedExpression) -> SQLFragment {
        guard case .attribute(let path, let attribute) = operand, attribute.type == .boolean else { return expression(operand) }
        return SQLFragment(sql: dialect.aggregated(column(path, attribute), type: .boolean))
    }

    /// The key of the object at the end of `path`: `Z_PK` of its scope, or the foreign key of
    /// the last to-one (no join needed for it).
    private mutating func objectKey(_ path: ResolvedPath) -> SQLFragment {
        guard let last = path.toOnes.last else { return SQLFragment(sql: "\(verbatim: frames[path.scope].alias).\(.Z_PK)") }
        var owner = path
        owner.toOnes.removeLast()
        return SQLFragment(sql: foreignKey(last.relationship, in: owner.end, of: alias(of: owner)))
    }

    /// The foreign key column of a to-one of `entity`, in the row `alias` names.
    private func foreignKey(_ relationship: RelationshipDescription, in entity: EntityDescription, of alias: String) -> SQL {
        guard case .foreignKey(let column, _, _) = relationship.storage else { return "NULL" }
        return "\(verbatim: alias).\(name: entity.tableColumns[column])"
    }

    /// The alias of the row at the end of a to-one path, adding `LEFT OUTER JOIN`s to its scope.
    private mutating func alias(of path: ResolvedPath) -> String {
        var alias = frames[path.scope].alias
        var key = ""
        var entity = path.start
        for step in path.toOnes {
            key += "." + step.relationship.name
            if let joined = frames[path.scope].joined[key] {
                alias = joined
            } else {
                let next = newAlias()
                readsOtherRows = true
                frames[path.scope].joins.append(
                    "LEFT OUTER JOIN \(name: step.destination.tableName) \(verbatim: next) ON \(foreignKey(step.relationship, in: entity, of: alias)) = \(verbatim: next).\(.Z_PK)")
                frames[path.scope].joined[key] = next
                alias = next
            }
            entity = step.destination
        }
        return alias
    }

    private mutating func newAlias() -> String {
        defer { nextAlias += 1 }
        return "t\(nextAlias)"
    }

    // MARK: Collections

    /// The `FROM … WHERE correlation` of a to-many's elements, before the element scope's joins.
    private struct CollectionSource {
        var table: SQL
        var correlation: SQLFragment
        var scope: Int
    }

    /// Opens the element scope of `collection`; `leave` closes it and returns its `FROM` text.
    private mutating func enter(_ collection: ResolvedCollection) -> CollectionSource {
        let owner = objectKey(collection.owner)
        let element = newAlias()
        readsOtherRows = true
        let source: CollectionSource
        switch collection.relationship.storage {
        case .inverseForeignKey(let table, let column, _), .hiddenColumn(let table, let column):
            source = CollectionSource(table: "\(name: table) \(verbatim: element)", correlation: "\(verbatim: element).\(name: column) = " + owner, scope: collection.elementScope)
        case .joinTable(let table, let ownColumn, let otherColumn, _, _):
            let join = newAlias()
            source = CollectionSource(
                table: "\(name: table) \(verbatim: join) JOIN \(name: collection.destination.tableName) \(verbatim: element) ON \(verbatim: element).\(.Z_PK) = \(verbatim: join).\(name: otherColumn)",
                correlation: "\(verbatim: join).\(name: ownColumn) = " + owner, scope: collection.elementScope)
        case .foreignKey, .none:
            source = CollectionSource(table: "\(name: collection.destination.tableName) \(verbatim: element)", correlation: truth(false), scope: collection.elementScope)
        }
        frames.removeSubrange(min(collection.elementScope, frames.count)...)
        frames.append(Frame(alias: element))
        return source
    }

    private mutating func leave(_ source: CollectionSource) -> SQLFragment {
        let joins = frames[source.scope].joins.map { " " + $0 }.joined(separator: "")
        frames.removeSubrange(source.scope...)
        return source.table + joins + " WHERE " + source.correlation
    }
}
