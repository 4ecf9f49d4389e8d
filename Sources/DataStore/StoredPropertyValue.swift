import Foundation

/// A type the stored properties of generated classes keep attribute values in: the payload of one
/// `AttributeValue` case, held as an optional (`nil` for a missing value): a `CompactOptional` for
/// `Int64`, `Double` and `Date`, which it keeps in their own width, else an `Optional`. `Int64` holds every
/// integer width, `Double` both floating-point types, `Data` binary and transformable values, and
/// `AttributeValue` itself whatever no single case fits (composites, object IDs).
public protocol StoredPropertyValue: Equatable {
    /// The value of `slot` in the row `visitor` is reading, `nil` for a missing one.
    static func read(_ slot: Int, with visitor: inout StoredAttributeVisitor) -> Self?
    /// The payload of `value` when it is of this type's case, else `nil`: a value of another case
    /// does not fit the property, and the object keeps its values in a buffer instead.
    init?(payloadOf value: AttributeValue)
    /// The value as its `AttributeValue` case.
    var storedAttributeValue: AttributeValue { get }
}

extension Optional where Wrapped: StoredPropertyValue {
    /// `value` as a stored property holds it: `nil` for `null`, else the payload of its case; no
    /// value at all (the initializer fails) when it is of another case and does not fit.
    @inlinable
    init?(fitting value: AttributeValue) {
        if case .null = value {
            self = .none
        } else if let payload = Wrapped(payloadOf: value) {
            self = payload
        } else {
            return nil
        }
    }
}

extension Int64: StoredPropertyValue {
    @inlinable public static func read(_ slot: Int, with visitor: inout StoredAttributeVisitor) -> Int64? { visitor.row!.integer(slot) }
    public init?(payloadOf value: AttributeValue) { if case .integer(let payload) = value { self = payload } else { return nil } }
    public var storedAttributeValue: AttributeValue { .integer(self) }
}

extension Double: StoredPropertyValue {
    @inlinable public static func read(_ slot: Int, with visitor: inout StoredAttributeVisitor) -> Double? { visitor.row!.double(slot) }
    public init?(payloadOf value: AttributeValue) { if case .double(let payload) = value { self = payload } else { return nil } }
    public var storedAttributeValue: AttributeValue { .double(self) }
}

extension Decimal: StoredPropertyValue {
    @inlinable public static func read(_ slot: Int, with visitor: inout StoredAttributeVisitor) -> Decimal? { visitor.row!.decimal(slot) }
    public init?(payloadOf value: AttributeValue) { if case .decimal(let payload) = value { self = payload } else { return nil } }
    public var storedAttributeValue: AttributeValue { .decimal(self) }
}

extension Bool: StoredPropertyValue {
    @inlinable public static func read(_ slot: Int, with visitor: inout StoredAttributeVisitor) -> Bool? { visitor.row!.bool(slot) }
    public init?(payloadOf value: AttributeValue) { if case .bool(let payload) = value { self = payload } else { return nil } }
    public var storedAttributeValue: AttributeValue { .bool(self) }
}

extension String: StoredPropertyValue {
    @inlinable public static func read(_ slot: Int, with visitor: inout StoredAttributeVisitor) -> String? { visitor.row!.string(slot) }
    public init?(payloadOf value: AttributeValue) { if case .string(let payload) = value { self = payload } else { return nil } }
    public var storedAttributeValue: AttributeValue { .string(self) }
}

extension Date: StoredPropertyValue {
    @inlinable public static func read(_ slot: Int, with visitor: inout StoredAttributeVisitor) -> Date? { visitor.row!.date(slot) }
    public init?(payloadOf value: AttributeValue) { if case .date(let payload) = value { self = payload } else { return nil } }
    public var storedAttributeValue: AttributeValue { .date(self) }
}

extension Data: StoredPropertyValue {
    @inlinable public static func read(_ slot: Int, with visitor: inout StoredAttributeVisitor) -> Data? { visitor.row!.data(slot) }
    public init?(payloadOf value: AttributeValue) { if case .data(let payload) = value { self = payload } else { return nil } }
    public var storedAttributeValue: AttributeValue { .data(self) }
}

extension UUID: StoredPropertyValue {
    @inlinable public static func read(_ slot: Int, with visitor: inout StoredAttributeVisitor) -> UUID? { visitor.row!.uuid(slot) }
    public init?(payloadOf value: AttributeValue) { if case .uuid(let payload) = value { self = payload } else { return nil } }
    public var storedAttributeValue: AttributeValue { .uuid(self) }
}

extension URL: StoredPropertyValue {
    @inlinable public static func read(_ slot: Int, with visitor: inout StoredAttributeVisitor) -> URL? { visitor.row!.url(slot) }
    public init?(payloadOf value: AttributeValue) { if case .url(let payload) = value { self = payload } else { return nil } }
    public var storedAttributeValue: AttributeValue { .url(self) }
}

extension AttributeValue: StoredPropertyValue {
    @inlinable public static func read(_ slot: Int, with visitor: inout StoredAttributeVisitor) -> AttributeValue? {
        let value = visitor.row!.value(slot)
        return value.isNull ? nil : value
    }

    public init?(payloadOf value: AttributeValue) { self = value }
    public var storedAttributeValue: AttributeValue { self }
}
