import Foundation

/// An optional `Int64`, `Double` or `Date` in the width of the value itself, as generated classes
/// keep attribute values of those types: 8 bytes, where `Optional` takes 9 and, aligned, 16.
///
/// One bit pattern stands for `nil`: `Int64.min`, or for `Double` and `Date` a signalling NaN with
/// a payload of its own, which no arithmetic produces and SQLite never stores. A value with that
/// exact pattern does not fit (`init(fitting:)` fails); the object then keeps its values in its
/// buffer instead, as it does for any value its stored properties cannot hold, so no value is
/// ever read as missing.
@frozen
public struct CompactOptional<Wrapped: CompactlyStorable>: ExpressibleByNilLiteral {
    @usableFromInline var bits: UInt64

    /// `nil`.
    @inlinable public init(nilLiteral: ()) {
        bits = Wrapped.compactNilBits
    }

    /// `value` in compact form; `nil` when `value` has the bit pattern that stands for `nil`.
    @inlinable public init?(fitting value: Wrapped?) {
        guard let value else {
            bits = Wrapped.compactNilBits
            return
        }
        bits = value.compactBits
        if bits == Wrapped.compactNilBits { return nil }
    }

    /// The value as a plain optional.
    @inlinable public var value: Wrapped? {
        bits == Wrapped.compactNilBits ? nil : Wrapped(compactBits: bits)
    }
}

/// A type `CompactOptional` holds in its own width: it gives up one bit pattern to stand for `nil`.
public protocol CompactlyStorable: StoredPropertyValue {
    /// The pattern that stands for `nil`.
    static var compactNilBits: UInt64 { get }
    init(compactBits: UInt64)
    var compactBits: UInt64 { get }
}

extension Int64: CompactlyStorable {
    @inlinable public static var compactNilBits: UInt64 { UInt64(bitPattern: .min) }
    @inlinable public init(compactBits: UInt64) { self.init(bitPattern: compactBits) }
    @inlinable public var compactBits: UInt64 { UInt64(bitPattern: self) }
}

extension Double: CompactlyStorable {
    /// A signalling NaN: arithmetic yields quiet ones, and SQLite stores NaN as `NULL`.
    @inlinable public static var compactNilBits: UInt64 { 0x7FF4_DA7A_0000_0001 }
    @inlinable public init(compactBits: UInt64) { self.init(bitPattern: compactBits) }
    @inlinable public var compactBits: UInt64 { bitPattern }
}

extension Date: CompactlyStorable {
    @inlinable public static var compactNilBits: UInt64 { Double.compactNilBits }
    @inlinable public init(compactBits: UInt64) { self.init(timeIntervalSinceReferenceDate: Double(bitPattern: compactBits)) }
    @inlinable public var compactBits: UInt64 { timeIntervalSinceReferenceDate.bitPattern }
}
