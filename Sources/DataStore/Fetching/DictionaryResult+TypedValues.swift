import Foundation

/// Typed reading of a dictionary fetch's rows (`fetchDictionaries`): `row.string("name")`,
/// `row["total", as: Double.self]`, `row.objectID("author")`. A key without a value (nil in the
/// store, or not fetched) and a value that is not of the type read as `nil`; numbers convert as
/// attributes convert them (any integer to `Int`, an integer to `Double`).
extension Dictionary where Key == String, Value == PredicateValue {
    /// The value of `key` as `type`.
    public subscript<T: AttributeStorable>(key: String, as type: T.Type) -> T? {
        guard case .attribute(let value)? = self[key] else { return nil }
        return T(attributeValue: value)
    }

    /// The value of `key` as a string.
    public func string(_ key: String) -> String? {
        self[key, as: String.self]
    }

    /// The object a to-one key path (`"author"`) or `"objectID"` gives.
    public func objectID(_ key: String) -> ObjectID? {
        guard case .object(let object)? = self[key] else { return nil }
        return object.objectID
    }
}
