import Foundation

/// A Swift type whose generated property reads and writes its stored property directly: the
/// standard types of attributes, optional or not, and the stored property's type they convert
/// to and from (`Int16` is kept as an `Int64`, `Float` as a `Double`).
public protocol PropertyStorable: AttributeStorable {
    associatedtype Stored: StoredPropertyValue
    /// The value of a stored property: `unsetValue` for `nil` unless the type is optional.
    init(stored: Stored?)
    /// The value to keep in the stored property.
    var stored: Stored? { get }
}

extension PropertyStorable where Stored == Self {
    @inlinable public init(stored: Self?) { self = stored ?? Self.unsetValue }
    @inlinable public var stored: Self? { self }
}

extension PropertyStorable where Self: FixedWidthInteger, Stored == Int64 {
    @inlinable public init(stored: Int64?) { self = stored.map { Self(truncatingIfNeeded: $0) } ?? 0 }
    @inlinable public var stored: Int64? { Int64(truncatingIfNeeded: self) }
}

extension Int64: PropertyStorable {
    @inlinable public init(stored: Int64?) { self = stored ?? 0 }
    @inlinable public var stored: Int64? { self }
}

extension Int32: PropertyStorable { public typealias Stored = Int64 }
extension Int16: PropertyStorable { public typealias Stored = Int64 }
extension Int: PropertyStorable { public typealias Stored = Int64 }
extension Double: PropertyStorable {}
extension Decimal: PropertyStorable {}
extension Bool: PropertyStorable {}
extension String: PropertyStorable {}
extension Date: PropertyStorable {}
extension Data: PropertyStorable {}
extension UUID: PropertyStorable {}
extension URL: PropertyStorable {}

extension Float: PropertyStorable {
    @inlinable public init(stored: Double?) { self = stored.map { Float($0) } ?? 0 }
    @inlinable public var stored: Double? { Double(self) }
}

extension Optional: PropertyStorable where Wrapped: PropertyStorable {
    @inlinable public init(stored: Wrapped.Stored?) { self = stored.map { Wrapped(stored: $0) } }
    @inlinable public var stored: Wrapped.Stored? { self.flatMap { $0.stored } }
}
