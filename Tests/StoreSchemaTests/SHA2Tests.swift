import Crypto
@testable import StoreSchema
import Testing
import TestSupport

/// The SHA-2 behind the model version hashes: FIPS 180-4's examples, and swift-crypto's digests of
/// random messages of every length around the padding's block boundaries.
struct SHA2Tests {
    static let examples: [(message: String, sha256: String, sha512: String)] = [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
         "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
         "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
         "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
         "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"),
    ]

    @Test func standardExamples() {
        for example in Self.examples {
            #expect(hexDigits(SHA2.sha256(Array(example.message.utf8))) == example.sha256.uppercased(), "\(example.message)")
            #expect(hexDigits(SHA2.sha512(Array(example.message.utf8))) == example.sha512.uppercased(), "\(example.message)")
        }
    }

    /// Every length from 0 to 300 bytes: one, two and three blocks of both variants, and each
    /// length where the padding spills into another block.
    @Test func randomMessages_equalSwiftCrypto() {
        var generator = SplitMix64(seed: 0x5A2)
        for length in 0...300 {
            let message = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            #expect(SHA2.sha256(message) == Array(SHA256.hash(data: message)), "length \(length)")
            #expect(SHA2.sha512(message) == Array(SHA512.hash(data: message)), "length \(length)")
        }
    }
}
