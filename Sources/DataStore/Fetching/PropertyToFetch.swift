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
        function.map { "\(name) = \($0.rawValue)(\(keyPath))" } ?? keyPath
    }
}
