import GRDB

/// Evaluates a resolved predicate on objects in memory — their current, unsaved values — with the
/// SQL compiler's meaning: values compare as the store compares them (`StoredValueOrder`), strings
/// through `TextMatching`, `nil` as SQL's `NULL` under `IS`, `=` and `<`.
struct PredicateEvaluator {
    let context: ObjectContext
    /// The results of each fetch in the predicate, read once per evaluator: an evaluator lives for
    /// one operation, in which the rows saved do not change.
    private let fetchedResults = FetchedResults()

    private final class FetchedResults {
        var byFetch: [ObjectIdentifier: [DatabaseValue]] = [:]
    }

    private typealias Value = EvaluatedValue

    func evaluate(_ predicate: ResolvedPredicate, on object: ManagedObject) -> Bool {
        evaluate(predicate, scopes: [object])
    }

    /// The stored value of `attribute` at the end of `path` from `object` (`NULL` past a `nil`).
    func storedValue(of attribute: AttributeDescription, at path: ResolvedPath, from object: ManagedObject) -> DatabaseValue {
        guard case .stored(let value) = value(.attribute(path, attribute), [object]) else { return .null }
        return value
    }

    private func evaluate(_ predicate: ResolvedPredicate, scopes: [ManagedObject]) -> Bool {
        switch predicate {
        case .constant(let value): return value
        case .not(let predicate): return !evaluate(predicate, scopes: scopes)
        case .and(let terms): return terms.allSatisfy { evaluate($0, scopes: scopes) }
        case .or(let terms): return terms.contains { evaluate($0, scopes: scopes) }
        case .compare(let lhs, .in, .fetched(let fetch), let options):
            return isMember(value(lhs, scopes), of: fetch, options: options)
        case .compare(let lhs, let comparisonOperator, let rhs, let options):
            let patternIsFolded = if case .value = rhs { true } else { false }
            return Value.compare(value(lhs, scopes), comparisonOperator, value(rhs, scopes), options: options, patternIsFolded: patternIsFolded)
        case .quantified(let quantifier, let collection, let predicate):
            let elements = self.elements(of: collection, scopes)
            let matches = { (element: ManagedObject) in evaluate(predicate, scopes: Self.entering(collection, element, scopes)) }
            switch quantifier {
            case .direct, .any: return elements.contains(where: matches)
            case .all: return elements.allSatisfy(matches)
            case .none: return !elements.contains(where: matches)
            }
        }
    }

    // MARK: Values

    /// The stored value `expression` computes for `object`: a dictionary fetch's expression.
    func storedValue(of expression: ResolvedExpression, on object: ManagedObject) -> DatabaseValue {
        storedValue(expression, [object])
    }

    /// The object `expression` reaches from `object`.
    func objectID(of expression: ResolvedExpression, on object: ManagedObject) -> ObjectID? {
        if case .object(let id) = value(expression, [object]) { id } else { nil }
    }

    private func value(_ expression: ResolvedExpression, _ scopes: [ManagedObject]) -> Value {
        switch expression {
        case .value(let value): return .stored(value)
        case .objectValue(let id): return .object(id)
        case .list(let elements): return .list(elements.map { value($0, scopes) })
        case .attribute(let path, let attribute):
            guard let object = object(at: path, scopes) else { return .stored(.null) }
            return .stored(object.loadedValue(atSlot: attribute.slot).member(at: attribute.memberPath).databaseValue)
        case .object(let path):
            return .object(objectID(at: path, scopes))
        case .aggregate(let function, let collection, let valuePath):
            let elements = self.elements(of: collection, scopes)
            guard let (path, attribute) = valuePath else { return .stored(Int64(elements.count).databaseValue) }
            let values = elements.compactMap { element -> DatabaseValue? in
                let inner = Self.entering(collection, element, scopes)
                let value = object(at: path, inner).map { $0.loadedValue(atSlot: attribute.slot).member(at: attribute.memberPath).databaseValue } ?? .null
                return value.isNull ? nil : value
            }
            return .stored(StoredAggregate.value(function, values))
        case .subqueryCount(let collection, let predicate):
            let count = elements(of: collection, scopes).count { evaluate(predicate, scopes: Self.entering(collection, $0, scopes)) }
            return .stored(Int64(count).databaseValue)
        case .operation(let function, let operands, let inReals):
            return .stored(function.value(of: operands.map { storedValue($0, scopes) }, inReals: inReals))
        case .function(let function, let arguments):
            return .stored(function.value(of: arguments.map { storedValue($0, scopes) }))
        case .conditional(let condition, let whenTrue, let whenFalse):
            return value(evaluate(condition, scopes: scopes) ? whenTrue : whenFalse, scopes)
        case .numberText(let number):
            return .stored(NumberText.text(of: storedValue(number, scopes)))
        case .fetched(let fetch):
            let results = fetched(fetch)
            return fetch.isScalar ? .stored(results.first ?? .null) : .list(results.map(Value.stored))
        }
    }

    // MARK: Fetches

    /// The results of a fetch in a predicate, read with the subquery the store runs, so memory
    /// and SQL agree: primary keys of objects, or values. A read that fails gives none, as a
    /// relationship that fails to load does here.
    private func fetched(_ fetch: ResolvedFetch) -> [DatabaseValue] {
        if let known = fetchedResults.byFetch[ObjectIdentifier(fetch.identity)] { return known }
        var results: [DatabaseValue] = []
        // Read as the kind it compares as, the way an object's own values are read here.
        let type = fetch.kind.attributeType
        try? context.readEachRow(PredicateSQLCompiler.subquery(fetch, store: context.store(holding: fetch.entity)), in: context.store(holding: fetch.entity)) { row in
            results.append(row.attributeValue(0, as: type).databaseValue)
        }
        fetchedResults.byFetch[ObjectIdentifier(fetch.identity)] = results
        return results
    }

    /// Whether `value` is among a fetch's results: an object by its primary key in the fetch's
    /// table, a value as `IN` a list compares it.
    private func isMember(_ value: Value, of fetch: ResolvedFetch, options: StringOptions) -> Bool {
        let results = fetched(fetch)
        guard case .object(let id) = value else {
            return Value.compare(value, .in, .list(results.map(Value.stored)), options: options, patternIsFolded: false)
        }
        guard let id, let key = id.primaryKey, context.store.entity(named: id.entityName)?.tableName == fetch.objectTable,
              context.store(of: id) === context.store(holding: fetch.entity)
        else { return false }
        return results.contains(key.databaseValue)
    }

    /// The stored value an operand of a function yields; `NULL` for an object or a list.
    private func storedValue(_ expression: ResolvedExpression, _ scopes: [ManagedObject]) -> DatabaseValue {
        if case .stored(let value) = value(expression, scopes) { value } else { .null }
    }

    private func object(at path: ResolvedPath, _ scopes: [ManagedObject]) -> ManagedObject? {
        var object = scopes[path.scope]
        for step in path.toOnes {
            guard let id = context.destinationID(of: object, slot: step.relationship.slot) else { return nil }
            object = context.object(with: id)
        }
        return object
    }

    /// The ID of the object at the end of `path` from `object` (`nil` past a `nil`).
    func objectID(at path: ResolvedPath, from object: ManagedObject) -> ObjectID? {
        objectID(at: path, [object])
    }

    private func objectID(at path: ResolvedPath, _ scopes: [ManagedObject]) -> ObjectID? {
        guard let last = path.toOnes.last else { return scopes[path.scope].objectID }
        var owner = path
        owner.toOnes.removeLast()
        return object(at: owner, scopes).flatMap { context.destinationID(of: $0, slot: last.relationship.slot) }
    }

    private func elements(of collection: ResolvedCollection, _ scopes: [ManagedObject]) -> [ManagedObject] {
        guard let owner = object(at: collection.owner, scopes) else { return [] }
        return context.destinationIDs(of: owner, slot: collection.relationship.slot).map { context.object(with: $0) }
    }

    private static func entering(_ collection: ResolvedCollection, _ element: ManagedObject, _ scopes: [ManagedObject]) -> [ManagedObject] {
        Array(scopes.prefix(collection.elementScope)) + [element]
    }
}
