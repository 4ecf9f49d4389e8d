import Foundation
@testable import StoreSchema
import Testing

/// The in-module SHA-2 against FIPS 180-4 test vectors and, at every padding boundary, the
/// system's `sha256sum`/`sha512sum`.
@Suite struct SHA2Tests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    @Test func sha256_matchesTheStandardVectors() {
        #expect(Self.hex(SHA2.sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.hex(SHA2.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.hex(SHA2.sha256(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Self.hex(SHA2.sha256([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func sha512_matchesTheStandardVectors() {
        #expect(Self.hex(SHA2.sha512(Array("abc".utf8)))
            == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        #expect(Self.hex(SHA2.sha512([]))
            == "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e")
        let twoBlocks = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(Self.hex(SHA2.sha512(Array(twoBlocks.utf8)))
            == "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909")
    }

    /// Lengths around the 56/64 and 112/128-byte padding boundaries, against coreutils.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sha256sum"), "coreutils sha256sum is absent"),
          arguments: [0, 1, 55, 56, 57, 63, 64, 65, 111, 112, 113, 127, 128, 129, 1000])
    func digests_matchCoreutils(length: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(Self.hex(SHA2.sha256(message)) == (try Self.coreutils("sha256sum", message)))
        #expect(Self.hex(SHA2.sha512(message)) == (try Self.coreutils("sha512sum", message)))
    }

    static func coreutils(_ tool: String, _ message: [UInt8]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(message))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix { $0 != " " })
    }
}
