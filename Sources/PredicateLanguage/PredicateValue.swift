import Foundation

/// A constant in a predicate: an attribute value, an object, or a collection of them.
public enum PredicateValue: Sendable, Hashable {
    /// A value of an attribute type; `.attribute(.null)` is `nil`.
    case attribute(AttributeValue)
    /// An object, compared by identity with to-one relationships and `SELF`.
    case object(PredicateObject)
    /// An array or set argument, for `IN`.
    case collection([PredicateValue])
    /// A fetch's results (Core Data's `NSFetchRequestExpression`): the right of `IN`, or a count.
    case fetch(PredicateFetch)

    public static let null = PredicateValue.attribute(.null)
}

/// A Swift value that can be a predicate argument (`%@`, `%d`, `%f`, `%K`) or a substitution
/// variable's value: numbers, Booleans, strings, dates, data, UUIDs, URLs, decimals, objects and
/// their IDs, optionals and collections of these.
public protocol PredicateArgument {
    var predicateValue: PredicateValue { get }
}

extension PredicateValue: PredicateArgument {
    public var predicateValue: PredicateValue { self }
}

extension AttributeValue: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(self) }
}

extension Int: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.integer(Int64(self))) }
}

extension Int16: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.integer(Int64(self))) }
}

extension Int32: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.integer(Int64(self))) }
}

extension Int64: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.integer(self)) }
}

extension UInt: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.integer(Int64(clamping: self))) }
}

extension Double: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.double(self)) }
}

extension Float: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.double(Double(self))) }
}

extension Bool: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.bool(self)) }
}

extension String: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.string(self)) }
}

extension Substring: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.string(String(self))) }
}

extension Date: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.date(self)) }
}

extension Data: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.data(self)) }
}

extension UUID: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.uuid(self)) }
}

extension URL: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.url(self)) }
}

extension Decimal: PredicateArgument {
    public var predicateValue: PredicateValue { .attribute(.decimal(self)) }
}

extension Optional: PredicateArgument where Wrapped: PredicateArgument {
    public var predicateValue: PredicateValue { self?.predicateValue ?? .null }
}

extension Array: PredicateArgument where Element: PredicateArgument {
    public var predicateValue: PredicateValue { .collection(map(\.predicateValue)) }
}

extension Set: PredicateArgument where Element: PredicateArgument {
    public var predicateValue: PredicateValue { .collection(map(\.predicateValue)) }
}
