/// 64-bit polynomial fingerprints of names: a cheap test that no two names of a list are equal, where
/// equal names are rare and an exact check (which hashes every string) can be the fallback. Equal
/// fingerprints mean "maybe equal", never "equal".
///
/// Polynomial, so that the fingerprint of `prefix + rest` follows from the two parts' — a column's
/// companions (`Z12_NAME`, `Z_FOK_NAME`) cost no second pass over the name.
struct NameFingerprint {
    /// The fingerprint of the bytes so far.
    private(set) var value: UInt64 = 0
    /// `base` to the power of the byte count so far.
    private(set) var power: UInt64 = 1
    private static let base: UInt64 = 0x0000_0100_0000_01b3

    init() {}

    init(_ name: String) {
        var name = name
        name.withUTF8 { bytes in
            for byte in bytes { append(byte) }
        }
    }

    mutating func append(_ byte: UInt8) {
        value = value &* Self.base &+ UInt64(byte)
        power = power &* Self.base
    }

    /// The fingerprint of `prefix` followed by the bytes this one is of.
    func prefixed(by prefix: NameFingerprint) -> UInt64 {
        prefix.value &* power &+ value
    }

    /// Whether no two of `fingerprints` are equal; sorts them.
    static func areDistinct(_ fingerprints: inout [UInt64]) -> Bool {
        fingerprints.sort()
        return !fingerprints.indices.dropFirst().contains { fingerprints[$0] == fingerprints[$0 - 1] }
    }
}
