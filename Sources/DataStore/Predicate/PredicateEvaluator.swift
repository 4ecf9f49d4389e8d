import GRDB

/// Evaluates a resolved predicate on objects in memory — their current, unsaved values — with the
/// SQL compiler's meaning: values compare as the store compares them (`StoredValueOrder`), strings
/// through `TextMatching`, `nil` as SQL's `NULL` under `IS`, `=` and `<`.
struct PredicateEvaluator {
    let context: ObjectContext

    /// What an expression yields for one object.
    private enum Value {
        case stored(DatabaseValue)
        case object(ObjectID?)
        case list([Value])
    }

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
        case .compare(let lhs, let comparisonOperator, let rhs, let options):
            let patternIsFolded = if case .value = rhs { true } else { false }
            return compare(value(lhs, scopes), comparisonOperator, value(rhs, scopes), options: options, patternIsFolded: patternIsFolded)
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

    // MARK: Comparing

    private func compare(_ lhs: Value, _ comparisonOperator: ComparisonOperator, _ rhs: Value, options: StringOptions, patternIsFolded: Bool) -> Bool {
        switch comparisonOperator {
        case .equal: return equal(lhs, rhs, options)
        case .notEqual: return !equal(lhs, rhs, options)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let order = order(lhs, rhs, options) else { return false }
            switch comparisonOperator {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        case .beginsWith, .endsWith, .contains, .like, .matches:
            guard case .stored(let value) = lhs, case .stored(let pattern) = rhs,
                  case .string(let text) = value.storage, case .string(let patternText) = pattern.storage else { return false }
            return TextMatching.matches(text, comparisonOperator, patternText, options: options, patternIsFolded: patternIsFolded)
        case .in:
            guard case .list(let elements) = rhs else { return false }
            return elements.contains { equal(lhs, $0, options) }
        case .between:
            guard case .list(let bounds) = rhs, bounds.count == 2,
                  let low = order(lhs, bounds[0], options), let high = order(lhs, bounds[1], options) else { return false }
            return low >= 0 && high <= 0
        }
    }

    /// `IS` semantics: `nil` equals `nil` only.
    private func equal(_ lhs: Value, _ rhs: Value, _ options: StringOptions) -> Bool {
        switch (lhs, rhs) {
        case (.object(let left), .object(let right)): return left == right
        case (.stored(let left), .stored(let right)):
            if left.isNull || right.isNull { return left.isNull && right.isNull }
            return StoredValueOrder.compare(Self.folded(left, options), Self.folded(right, options)) == 0
        default: return false
        }
    }

    /// The order of two non-null stored values; `nil` when either is `nil` (SQL's `NULL`).
    private func order(_ lhs: Value, _ rhs: Value, _ options: StringOptions) -> Int? {
        guard case .stored(let left) = lhs, case .stored(let right) = rhs, !left.isNull, !right.isNull else { return nil }
        return StoredValueOrder.compare(Self.folded(left, options), Self.folded(right, options))
    }

    private static func folded(_ value: DatabaseValue, _ options: StringOptions) -> DatabaseValue {
        guard !options.isEmpty, case .string(let text) = value.storage else { return value }
        return TextMatching.fold(text, options).databaseValue
    }

    // MARK: Values

    private func value(_ expression: ResolvedExpression, _ scopes: [ManagedObject]) -> Value {
        switch expression {
        case .value(let value): return .stored(value)
        case .objectValue(let id): return .object(id)
        case .list(let elements): return .list(elements.map { value($0, scopes) })
        case .attribute(let path, let attribute):
            guard let object = object(at: path, scopes) else { return .stored(.null) }
            return .stored(object.attributeValue(atSlot: attribute.slot).member(at: attribute.memberPath).databaseValue)
        case .object(let path):
            return .object(objectID(at: path, scopes))
        case .aggregate(let function, let collection, let valuePath):
            let elements = self.elements(of: collection, scopes)
            guard let (path, attribute) = valuePath else { return .stored(Int64(elements.count).databaseValue) }
            let values = elements.compactMap { element -> DatabaseValue? in
                let inner = Self.entering(collection, element, scopes)
                let value = object(at: path, inner).map { $0.attributeValue(atSlot: attribute.slot).member(at: attribute.memberPath).databaseValue } ?? .null
                return value.isNull ? nil : value
            }
            return .stored(StoredAggregate.value(function, values))
        case .subqueryCount(let collection, let predicate):
            let count = elements(of: collection, scopes).count { evaluate(predicate, scopes: Self.entering(collection, $0, scopes)) }
            return .stored(Int64(count).databaseValue)
        }
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
