/// A property of a dictionary fetch (`context.fetchDictionaries`): the value of a key path, or an
/// aggregate of one over the matching objects (or over each group, with `propertiesToGroupBy`) —
/// Core Data's property names and `NSExpressionDescription`s.
///
///     request.propertiesToFetch = ["author", .sum("price", as: "total"), .count("title", as: "books")]
///     request.propertiesToGroupBy = ["author"]
public struct PropertyToFetch: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// How the values of the key path are aggregated.
    public enum Function: String, Sendable, Hashable {
        /// The number of non-nil values.
        case count
        /// The sum of the values; 0 when there are none. Integers sum exactly (an overflow is an
        /// error), other numbers as `Double`.
        case sum
        /// The mean of the values, a `Double`; nil when there are none.
        case average
        /// The smallest and largest value, in the store's order; nil when there are none.
        case minimum, maximum
    }

    /// The key of the value in each result dictionary: the key path, or the aggregate's name.
    public var name: String
    /// An attribute, or a to-one relationship (whose value is the destination's `ObjectID`),
    /// reached through to-one relationships: `title`, `author`, `author.name`.
    public var keyPath: String
    /// The aggregate, or `nil` for the key path's value.
    public var function: Function?
    /// An expression computed for each object — or, under an aggregate function
    /// (`sum:(price * quantity)`), for each group — instead of the key path: Core Data's
    /// `NSExpressionDescription` with any expression.
    public var expression: PredicateLanguage.PredicateExpression?

    /// The value of `keyPath`, named by it.
    public static func key(_ keyPath: String) -> PropertyToFetch {
        PropertyToFetch(name: keyPath, keyPath: keyPath, function: nil)
    }

    /// The number of non-nil values of `keyPath`, named `name`.
    public static func count(_ keyPath: String, as name: String) -> PropertyToFetch {
        PropertyToFetch(name: name, keyPath: keyPath, function: .count)
    }

    /// The sum of the values of `keyPath`, named `name`.
    public static func sum(_ keyPath: String, as name: String) -> PropertyToFetch {
        PropertyToFetch(name: name, keyPath: keyPath, function: .sum)
    }

    /// The mean of the values of `keyPath`, named `name`.
    public static func average(_ keyPath: String, as name: String) -> PropertyToFetch {
        PropertyToFetch(name: name, keyPath: keyPath, function: .average)
    }

    /// The smallest value of `keyPath`, named `name`.
    public static func minimum(_ keyPath: String, as name: String) -> PropertyToFetch {
        PropertyToFetch(name: name, keyPath: keyPath, function: .minimum)
    }

    /// The largest value of `keyPath`, named `name`.
    public static func maximum(_ keyPath: String, as name: String) -> PropertyToFetch {
        PropertyToFetch(name: name, keyPath: keyPath, function: .maximum)
    }

    /// The value of `expression`, named `name`, as Core Data's `NSExpressionDescription` gives
    /// it: computed for each matching object (`price * quantity`, `lowercase:(title)`,
    /// `TERNARY(pageCount > 300, 'long', 'short')`), or over each group when the expression is an
    /// aggregate of a value of the object (`sum:(price * quantity)`, `max:(published)`, `count:(title)`).
    ///
    ///     request.propertiesToFetch = ["author", try .expression(PredicateExpression(format: "sum:(price * quantity)"), as: "revenue")]
    ///
    /// The results are computed in memory from the matching objects, on every engine, with the
    /// meaning predicates give the expression; a value has the type of what it computes (an
    /// attribute's type, an integer or a real).
    public static func expression(_ expression: PredicateLanguage.PredicateExpression, as name: String) -> PropertyToFetch {
        var property = PropertyToFetch(name: name, keyPath: name, function: nil)
        property.expression = expression
        return property
    }

    /// The value of the key path written as a string literal: `"author.name"`.
    public init(stringLiteral keyPath: String) {
        self = .key(keyPath)
    }

    public init(name: String, keyPath: String, function: Function?) {
        self.name = name
        self.keyPath = keyPath
        self.function = function
    }

    public var description: String {
        if let expression { return "\(name) = \(expression)" }
        return function.map { "\(name) = \($0.rawValue)(\(keyPath))" } ?? keyPath
    }
}
