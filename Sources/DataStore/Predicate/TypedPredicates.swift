import Foundation

/// Predicates and sort descriptors from typed keys, type-checked by the compiler and equal to the
/// parsed form:
///
///     Book.price < 500 && Book.title.contains("war", options: .caseInsensitive)
///     // == try ObjectPredicate(format: "price < 500 AND title CONTAINS[c] 'war'")
extension AttributeKey {
    fileprivate var expression: PredicateExpression { .key(name) }

    fileprivate func compare(_ comparisonOperator: ComparisonOperator, _ value: any PredicateArgument, options: StringOptions = []) -> ObjectPredicate {
        .comparison(PredicateComparison(expression, comparisonOperator, .value(value.predicateValue), options: options))
    }

    /// `key op {values}`, as the parser reads a collection literal.
    fileprivate func compare(_ comparisonOperator: ComparisonOperator, collection values: [Value]) -> ObjectPredicate {
        .comparison(PredicateComparison(expression, comparisonOperator, .collection(values.map { .constant(.attribute($0.attributeValue)) })))
    }

    public static func == (key: Self, value: Value) -> ObjectPredicate { key.compare(.equal, value.attributeValue) }
    public static func != (key: Self, value: Value) -> ObjectPredicate { key.compare(.notEqual, value.attributeValue) }
    public static func < (key: Self, value: Value) -> ObjectPredicate { key.compare(.less, value.attributeValue) }
    public static func <= (key: Self, value: Value) -> ObjectPredicate { key.compare(.lessOrEqual, value.attributeValue) }
    public static func > (key: Self, value: Value) -> ObjectPredicate { key.compare(.greater, value.attributeValue) }
    public static func >= (key: Self, value: Value) -> ObjectPredicate { key.compare(.greaterOrEqual, value.attributeValue) }

    /// `key IN {values}`.
    public func isIn(_ values: [Value]) -> ObjectPredicate {
        compare(.in, collection: values)
    }

    /// `key BETWEEN {range.lowerBound, range.upperBound}`.
    public func isBetween(_ range: ClosedRange<Value>) -> ObjectPredicate where Value: Comparable {
        compare(.between, collection: [range.lowerBound, range.upperBound])
    }

    /// `key == nil`.
    public var isNil: ObjectPredicate { compare(.equal, PredicateValue.null) }
}

extension AttributeKey where Value: StringAttribute {
    public func contains(_ text: String, options: StringOptions = []) -> ObjectPredicate { compare(.contains, text, options: options) }
    public func beginsWith(_ text: String, options: StringOptions = []) -> ObjectPredicate { compare(.beginsWith, text, options: options) }
    public func endsWith(_ text: String, options: StringOptions = []) -> ObjectPredicate { compare(.endsWith, text, options: options) }
    /// `LIKE`: `?` matches one character, `*` any run.
    public func like(_ pattern: String, options: StringOptions = []) -> ObjectPredicate { compare(.like, pattern, options: options) }
    /// `MATCHES`: an ICU regular expression the whole string must match.
    public func matches(_ pattern: String, options: StringOptions = []) -> ObjectPredicate { compare(.matches, pattern, options: options) }
}

/// `String` and `String?`: the attribute types the string operators apply to.
public protocol StringAttribute: AttributeStorable {}
extension String: StringAttribute {}
extension Optional: StringAttribute where Wrapped == String {}

extension ObjectPredicate {
    public static func && (lhs: ObjectPredicate, rhs: ObjectPredicate) -> ObjectPredicate {
        if case .and(let terms) = lhs { return .and(terms + [rhs]) }
        return .and([lhs, rhs])
    }

    public static func || (lhs: ObjectPredicate, rhs: ObjectPredicate) -> ObjectPredicate {
        if case .or(let terms) = lhs { return .or(terms + [rhs]) }
        return .or([lhs, rhs])
    }

    public static prefix func ! (predicate: ObjectPredicate) -> ObjectPredicate { .not(predicate) }
}
