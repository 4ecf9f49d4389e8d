import Foundation

/// A Swift type an attribute can hold: the conversion to and from `AttributeValue`.
///
/// Generated properties use it (`var price: Double`, `var title: String?`); optional types store
/// `null` for `nil`.
public protocol AttributeStorable {
    /// What a required attribute that was never set reads as — reading never traps; saving it unset
    /// fails validation instead.
    static var unsetValue: Self { get }
    /// The Swift value, or `nil` when `attributeValue` cannot be one.
    init?(attributeValue: AttributeValue)
    var attributeValue: AttributeValue { get }
}

extension Optional: AttributeStorable where Wrapped: AttributeStorable {
    public static var unsetValue: Self { nil }

    public init?(attributeValue: AttributeValue) {
        if case .null = attributeValue {
            self = .none
        } else if let value = Wrapped(attributeValue: attributeValue) {
            self = .some(value)
        } else {
            return nil
        }
    }

    public var attributeValue: AttributeValue { self?.attributeValue ?? .null }
}

/// Integers of every width read from any integer (and from a Boolean, as SQLite stores it).
extension AttributeStorable where Self: FixedWidthInteger {
    public static var unsetValue: Self { 0 }

    public init?(attributeValue: AttributeValue) {
        switch attributeValue {
        case .integer(let value): self.init(truncatingIfNeeded: value)
        case .bool(let value): self = value ? 1 : 0
        // Toward zero, as `NSNumber` converts; a value beyond every integer converts to none.
        case .double(let value): guard let integer = Self(exactly: value.rounded(.towardZero)) else { return nil }; self = integer
        default: return nil
        }
    }

    public var attributeValue: AttributeValue { .integer(Int64(truncatingIfNeeded: self)) }
}

extension Int: AttributeStorable {}
extension Int16: AttributeStorable {}
extension Int32: AttributeStorable {}
extension Int64: AttributeStorable {}

extension Double: AttributeStorable {
    public static var unsetValue: Double { 0 }

    public init?(attributeValue: AttributeValue) {
        switch attributeValue {
        case .double(let value): self = value
        case .integer(let value): self = Double(value)
        case .decimal(let value): self = NSDecimalNumber(decimal: value).doubleValue
        // `YES` is the number 1, as `NSNumber` has it.
        case .bool(let value): self = value ? 1 : 0
        default: return nil
        }
    }

    public var attributeValue: AttributeValue { .double(self) }
}

extension Float: AttributeStorable {
    public static var unsetValue: Float { 0 }

    public init?(attributeValue: AttributeValue) {
        guard let value = Double(attributeValue: attributeValue) else { return nil }
        self = Float(value)
    }

    public var attributeValue: AttributeValue { .double(Double(self)) }
}

extension Decimal: AttributeStorable {
    public static var unsetValue: Decimal { 0 }

    public init?(attributeValue: AttributeValue) {
        switch attributeValue {
        case .decimal(let value): self = value
        case .integer(let value): self = Decimal(value)
        case .double(let value): self = Decimal(value)
        case .bool(let value): self = value ? 1 : 0
        default: return nil
        }
    }

    public var attributeValue: AttributeValue { .decimal(self) }
}

extension Bool: AttributeStorable {
    public static var unsetValue: Bool { false }

    public init?(attributeValue: AttributeValue) {
        switch attributeValue {
        case .bool(let value): self = value
        case .integer(let value): self = value != 0
        default: return nil
        }
    }

    public var attributeValue: AttributeValue { .bool(self) }
}

extension String: AttributeStorable {
    public static var unsetValue: String { "" }

    public init?(attributeValue: AttributeValue) {
        switch attributeValue {
        case .string(let value): self = value
        case .url(let value): self = value.absoluteString
        default: return nil
        }
    }

    public var attributeValue: AttributeValue { .string(self) }
}

extension Date: AttributeStorable {
    /// The reference date (2001-01-01), what Core Data stores as 0.
    public static var unsetValue: Date { Date(timeIntervalSinceReferenceDate: 0) }

    public init?(attributeValue: AttributeValue) {
        switch attributeValue {
        case .date(let value): self = value
        case .double(let value): self.init(timeIntervalSinceReferenceDate: value)
        case .integer(let value): self.init(timeIntervalSinceReferenceDate: Double(value))
        default: return nil
        }
    }

    public var attributeValue: AttributeValue { .date(self) }
}

extension Data: AttributeStorable {
    public static var unsetValue: Data { Data() }

    public init?(attributeValue: AttributeValue) {
        guard case .data(let value) = attributeValue else { return nil }
        self = value
    }

    public var attributeValue: AttributeValue { .data(self) }
}

extension UUID: AttributeStorable {
    /// The nil UUID (all zeros).
    public static var unsetValue: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }

    public init?(attributeValue: AttributeValue) {
        switch attributeValue {
        case .uuid(let value): self = value
        case .string(let value): guard let uuid = UUID(uuidString: value) else { return nil }; self = uuid
        default: return nil
        }
    }

    public var attributeValue: AttributeValue { .uuid(self) }
}

extension URL: AttributeStorable {
    /// An empty relative URL.
    public static var unsetValue: URL { URL(string: "about:blank")! }

    public init?(attributeValue: AttributeValue) {
        switch attributeValue {
        case .url(let value): self = value
        case .string(let value): guard let url = URL(string: value) else { return nil }; self = url
        default: return nil
        }
    }

    public var attributeValue: AttributeValue { .url(self) }
}

/// An enum (or any raw-representable type) over a storable raw value stores its raw value: declare
/// `extension Genre: AttributeStorable { static var unsetValue: Genre { .unknown } }`. A stored raw
/// value with no case reads as `nil` (and a required attribute's property as `unsetValue`).
extension AttributeStorable where Self: RawRepresentable, RawValue: AttributeStorable {
    public init?(attributeValue: AttributeValue) {
        guard let raw = RawValue(attributeValue: attributeValue) else { return nil }
        self.init(rawValue: raw)
    }

    public var attributeValue: AttributeValue { rawValue.attributeValue }
}
