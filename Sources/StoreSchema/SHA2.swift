/// SHA-256 and SHA-512 (FIPS 180-4), for the identifiers Core Data derives from a model: the
/// version hashes and the digests over them, and names a server's DDL shortens to its length.
///
/// They identify, they do not protect, and their inputs are a few hundred bytes. Computing them
/// here keeps a cryptography library, and the BoringSSL build it brings on Linux, out of every app
/// that links the store and out of the build plugins' tool.
package enum SHA2 {
    /// The 32-byte SHA-256 digest of `message`.
    package static func sha256(_ message: [UInt8]) -> [UInt8] { digest(of: message, SHA256.self) }

    /// The 64-byte SHA-512 digest of `message`.
    package static func sha512(_ message: [UInt8]) -> [UInt8] { digest(of: message, SHA512.self) }

    /// The two functions differ only in word size, round count, constants and rotations.
    private static func digest<Variant: SHA2Variant>(of message: [UInt8], _: Variant.Type) -> [UInt8] {
        typealias Word = Variant.Word
        let wordBytes = Word.bitWidth / 8
        let blockBytes = 16 * wordBytes
        // The message, a 1 bit, zeros, and the message's length in bits in the last block's last 2 words.
        let blockCount = (message.count + 1 + 2 * wordBytes + blockBytes - 1) / blockBytes
        var padded = [UInt8](repeating: 0, count: blockCount * blockBytes)
        padded.replaceSubrange(0..<message.count, with: message)
        padded[message.count] = 0x80
        let bitCount = UInt64(message.count) &* 8
        for byte in 0..<8 { padded[padded.count - 1 - byte] = UInt8(truncatingIfNeeded: bitCount &>> (byte * 8)) }

        let roundConstants = Variant.roundConstants
        var state = Variant.initialState
        var schedule = [Word](repeating: 0, count: roundConstants.count)
        for blockStart in stride(from: 0, to: padded.count, by: blockBytes) {
            for t in 0..<16 {
                let start = blockStart + t * wordBytes
                schedule[t] = padded[start..<start + wordBytes].reduce(0) { $0 &<< 8 | Word($1) }
            }
            for t in 16..<schedule.count {
                schedule[t] = Variant.smallSigma1(schedule[t - 2]) &+ schedule[t - 7]
                    &+ Variant.smallSigma0(schedule[t - 15]) &+ schedule[t - 16]
            }
            var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
            for t in schedule.indices {
                let choice = (e & f) ^ (~e & g)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let t1 = h &+ Variant.bigSigma1(e) &+ choice &+ roundConstants[t] &+ schedule[t]
                let t2 = Variant.bigSigma0(a) &+ majority
                (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
            state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(8 * wordBytes)
        for word in state {
            for shift in stride(from: Word.bitWidth - 8, through: 0, by: -8) { digest.append(UInt8(truncatingIfNeeded: word &>> shift)) }
        }
        return digest
    }
}

/// What tells SHA-256 and SHA-512 apart.
private protocol SHA2Variant {
    associatedtype Word: FixedWidthInteger & UnsignedInteger
    /// The first bits of the fractional parts of the square roots of the first 8 primes.
    static var initialState: [Word] { get }
    /// The first bits of the fractional parts of the cube roots of the first primes: one per round.
    static var roundConstants: [Word] { get }
    static func bigSigma0(_ x: Word) -> Word
    static func bigSigma1(_ x: Word) -> Word
    static func smallSigma0(_ x: Word) -> Word
    static func smallSigma1(_ x: Word) -> Word
}

extension FixedWidthInteger {
    fileprivate func rotatedRight(_ count: Int) -> Self { self &>> count | self &<< (Self.bitWidth - count) }
}

private enum SHA256: SHA2Variant {
    static func bigSigma0(_ x: UInt32) -> UInt32 { x.rotatedRight(2) ^ x.rotatedRight(13) ^ x.rotatedRight(22) }
    static func bigSigma1(_ x: UInt32) -> UInt32 { x.rotatedRight(6) ^ x.rotatedRight(11) ^ x.rotatedRight(25) }
    static func smallSigma0(_ x: UInt32) -> UInt32 { x.rotatedRight(7) ^ x.rotatedRight(18) ^ x &>> 3 }
    static func smallSigma1(_ x: UInt32) -> UInt32 { x.rotatedRight(17) ^ x.rotatedRight(19) ^ x &>> 10 }

    static let initialState: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]

    static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]
}

private enum SHA512: SHA2Variant {
    static func bigSigma0(_ x: UInt64) -> UInt64 { x.rotatedRight(28) ^ x.rotatedRight(34) ^ x.rotatedRight(39) }
    static func bigSigma1(_ x: UInt64) -> UInt64 { x.rotatedRight(14) ^ x.rotatedRight(18) ^ x.rotatedRight(41) }
    static func smallSigma0(_ x: UInt64) -> UInt64 { x.rotatedRight(1) ^ x.rotatedRight(8) ^ x &>> 7 }
    static func smallSigma1(_ x: UInt64) -> UInt64 { x.rotatedRight(19) ^ x.rotatedRight(61) ^ x &>> 6 }

    static let initialState: [UInt64] = [
        0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
        0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
    ]

    static let roundConstants: [UInt64] = [
        0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc,
        0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
        0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
        0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
        0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
        0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
        0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4,
        0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
        0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
        0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
        0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30,
        0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
        0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8,
        0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
        0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
        0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
        0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178,
        0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
        0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c,
        0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
    ]
}
