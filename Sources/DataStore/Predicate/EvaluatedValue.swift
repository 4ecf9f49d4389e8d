import GRDB

/// What an expression yields when a predicate is evaluated in memory — a value in stored form, an
/// object, or a list — compared with the SQL compiler's meaning: values as the store compares
/// them (`StoredValueOrder`), strings through `TextMatching`, `nil` as SQL's `NULL` under `IS`,
/// `=` and `<`.
enum EvaluatedValue {
    case stored(DatabaseValue)
    case object(ObjectID?)
    case list([EvaluatedValue])

    /// Whether `lhs op rhs` holds; `patternIsFolded` says a string pattern on the right is folded
    /// for `options` already.
    static func compare(_ lhs: EvaluatedValue, _ comparisonOperator: ComparisonOperator, _ rhs: EvaluatedValue, options: StringOptions, patternIsFolded: Bool) -> Bool {
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
    private static func equal(_ lhs: EvaluatedValue, _ rhs: EvaluatedValue, _ options: StringOptions) -> Bool {
        switch (lhs, rhs) {
        case (.object(let left), .object(let right)): return left == right
        case (.stored(let left), .stored(let right)):
            if left.isNull || right.isNull { return left.isNull && right.isNull }
            return StoredValueOrder.compare(folded(left, options), folded(right, options)) == 0
        default: return false
        }
    }

    /// The order of two non-null stored values; `nil` when either is `nil` (SQL's `NULL`).
    private static func order(_ lhs: EvaluatedValue, _ rhs: EvaluatedValue, _ options: StringOptions) -> Int? {
        guard case .stored(let left) = lhs, case .stored(let right) = rhs, !left.isNull, !right.isNull else { return nil }
        return StoredValueOrder.compare(folded(left, options), folded(right, options))
    }

    private static func folded(_ value: DatabaseValue, _ options: StringOptions) -> DatabaseValue {
        guard !options.isEmpty, case .string(let text) = value.storage else { return value }
        return TextMatching.fold(text, options).databaseValue
    }
}
