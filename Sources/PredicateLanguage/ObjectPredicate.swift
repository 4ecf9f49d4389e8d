/// A condition on objects, in Core Data's predicate language: parsed from a format string
/// (`ObjectPredicate(format:)`) or built with typed keys (`Book.price < 500`). A value: `Sendable`,
/// comparable, and printed back in the format syntax.
///
/// The same predicate runs as SQL in the store (bound parameters only) and in memory on objects,
/// with the same result.
///
///     let cheap = try ObjectPredicate(format: "price < %@ AND title CONTAINS[cd] %@", 500, "war")
public indirect enum ObjectPredicate: Sendable, Hashable {
    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    case constant(Bool)
    case not(ObjectPredicate)
    case and([ObjectPredicate])
    case or([ObjectPredicate])
    case comparison(PredicateComparison)

    /// The predicate that every object matches.
    public static let `true` = ObjectPredicate.constant(true)
    /// The predicate that no object matches.
    public static let `false` = ObjectPredicate.constant(false)
}

/// `lhs op rhs`, optionally quantified over a to-many left side (`ANY books.price < 5`).
public struct PredicateComparison: Sendable, Hashable {
    public var quantifier: Quantifier
    public var lhs: PredicateExpression
    public var `operator`: ComparisonOperator
    public var options: StringOptions
    public var rhs: PredicateExpression

    public init(_ lhs: PredicateExpression, _ comparisonOperator: ComparisonOperator, _ rhs: PredicateExpression,
                options: StringOptions = [], quantifier: Quantifier = .direct) {
        self.quantifier = quantifier
        self.lhs = lhs
        self.operator = comparisonOperator
        self.options = options
        self.rhs = rhs
    }
}

extension PredicateComparison {
    /// The comparison with `transform` applied to both sides.
    func mapSides(_ transform: (PredicateExpression) -> PredicateExpression) -> PredicateComparison {
        var mapped = self
        mapped.lhs = transform(lhs)
        mapped.rhs = transform(rhs)
        return mapped
    }
}

/// How a comparison applies to a to-many left side.
public enum Quantifier: String, Sendable, Hashable {
    /// No quantifier: the left side is one value.
    case direct = ""
    /// `ANY` (also `SOME`): at least one element matches.
    case any = "ANY"
    /// `ALL`: every element matches (true for no elements).
    case all = "ALL"
    /// `NONE`: no element matches.
    case none = "NONE"
}

public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    /// `?` matches one character, `*` any run of characters.
    case like = "LIKE"
    /// An ICU regular expression that must match the whole string.
    case matches = "MATCHES"
    /// Membership in a collection: `{…}`, an argument array, or a to-many key path.
    case `in` = "IN"
    /// `x BETWEEN {low, high}`, bounds included.
    case between = "BETWEEN"

    /// Whether the operator compares strings by their characters (and accepts `[cd]`).
    public var isStringOperator: Bool {
        switch self {
        case .beginsWith, .endsWith, .contains, .like, .matches: true
        default: false
        }
    }
}

/// The `[c]`, `[d]` and `[cd]` modifiers of string comparisons.
public struct StringOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `[c]`: case-insensitive.
    public static let caseInsensitive = StringOptions(rawValue: 1)
    /// `[d]`: diacritic-insensitive (`é` equals `e`).
    public static let diacriticInsensitive = StringOptions(rawValue: 2)
}

/// A side of a comparison.
public indirect enum PredicateExpression: Sendable, Hashable {
    /// `SELF`: the object being evaluated.
    case evaluatedObject
    /// A `$NAME` placeholder: replaced by `withSubstitutionVariables`, or the element variable of a
    /// `SUBQUERY`.
    case variable(String)
    /// A constant value.
    case constant(PredicateValue)
    /// `{a, b, …}`.
    case collection([PredicateExpression])
    /// A key path from a base: `name` and `details.closeDate` start at `.evaluatedObject`, `$b.price`
    /// at a variable. Components may be collection operators: `books.@count`, `books.@sum.price`.
    case keyPath(PredicateExpression, [String])
    /// `SUBQUERY(collection, $variable, predicate)`: the elements of a to-many that match.
    case subquery(collection: PredicateExpression, variable: String, predicate: ObjectPredicate)
    /// A built-in function of its arguments, the operators of the syntax among them:
    /// `price * 2` is `.function(.multiply, [price, 2])`.
    case function(PredicateFunction, [PredicateExpression])
    /// `TERNARY(condition, whenTrue, whenFalse)`: `whenTrue` where the condition holds, else `whenFalse`.
    case conditional(ObjectPredicate, PredicateExpression, PredicateExpression)
    /// `collection[SIZE]`, `[FIRST]`, `[LAST]` or `[n]`.
    case index(PredicateExpression, PredicateIndex)
    /// `FUNCTION(receiver, "selector", arguments…)`: a method of an object. A store cannot run one
    /// (nor can Core Data's): it is what a mapping model's value expressions call on the migration
    /// manager and the entity's migration policy (`FUNCTION($entityPolicy, "migrateIconURL")`).
    case method(PredicateExpression, selector: String, [PredicateExpression])

    /// The constant `value`; a collection becomes `{…}` of its elements, so an `IN %@` argument and
    /// the literal it prints as are the same predicate.
    public static func value(_ value: PredicateValue) -> PredicateExpression {
        guard case .collection(let elements) = value else { return .constant(value) }
        return .collection(elements.map(PredicateExpression.value))
    }

    /// The key path `path` (dot-separated) of the evaluated object.
    public static func key(_ path: String) -> PredicateExpression {
        .keyPath(.evaluatedObject, path.split(separator: ".").map(String.init))
    }
}

/// What an index expression reads of a collection.
public enum PredicateIndex: Sendable, Hashable {
    /// `[FIRST]`: the first element, or `nil` for none.
    case first
    /// `[LAST]`: the last element, or `nil` for none.
    case last
    /// `[SIZE]`: the number of elements.
    case size
    /// `[n]`: the element at `n`, from 0.
    case position(Int)
}
