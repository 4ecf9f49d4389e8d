import Foundation
@testable import StoreSchema
import Testing
import TestSupport

/// The model cache decoder on damaged input: the corpus stores' real caches, mutated — bytes
/// changed, cut short, repeated — in the compressed blob and, mostly, in the inflated archive, where
/// the damage reaches the decoder. Every input decodes or throws `ModelCacheError`; none traps,
/// loops or runs out of memory. `DATASTORE_CACHE_FUZZ_INPUTS` sets the count (100,000 for the full
/// run), `DATASTORE_CACHE_FUZZ_SEED` replays one.
@Suite(.enabled(if: CorpusStore.isAvailable, "needs ../shared/corpus"))
struct ModelCacheFuzzTests {
    static let inputs = ProcessInfo.processInfo.environment["DATASTORE_CACHE_FUZZ_INPUTS"].flatMap(Int.init) ?? 5_000
    static let seed = ProcessInfo.processInfo.environment["DATASTORE_CACHE_FUZZ_SEED"].flatMap(UInt64.init) ?? .random(in: 1...UInt64.max)

    @Test func damagedCaches_decodeOrThrowATypedError() throws {
        let blobs = try ModelCacheTests.stores.map { try ModelCacheTests.cache(of: CorpusStore($0)).blob }
        let archives = try blobs.map { try RawDeflate.inflate($0) }
        var random = SplitMix64(seed: Self.seed)
        var decoded = 0, refused = 0
        for _ in 0..<Self.inputs {
            let inArchive = Int.random(in: 0..<10, using: &random) > 0
            let source = inArchive ? archives.randomElement(using: &random)! : blobs.randomElement(using: &random)!
            let damaged = Self.mutated(source, using: &random)
            do {
                _ = inArchive ? try ModelCache.decode(archive: damaged, path: "fuzz") : try ModelCache.decode(damaged, path: "fuzz")
                decoded += 1
            } catch {
                refused += 1
            }
        }
        #expect(decoded + refused == Self.inputs, "seed \(Self.seed)")
        // Most damage is found; a byte changed inside a string may still decode.
        #expect(refused > Self.inputs / 4, "seed \(Self.seed): \(refused) of \(Self.inputs) refused")
        print("ModelCacheFuzzTests: \(Self.inputs) inputs (seed \(Self.seed)): \(decoded) decoded, \(refused) refused with ModelCacheError")
    }

    /// `bytes` with one to eight kinds of damage: bytes replaced, the end cut off, a run repeated
    /// or moved elsewhere.
    static func mutated(_ bytes: [UInt8], using random: inout SplitMix64) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...8, using: &random) where !bytes.isEmpty {
            switch Int.random(in: 0..<10, using: &random) {
            case 0:
                bytes.removeLast(Int.random(in: 0..<bytes.count, using: &random))
            case 1:
                let start = Int.random(in: 0..<bytes.count, using: &random)
                let run = bytes[start..<min(bytes.count, start + Int.random(in: 1...64, using: &random))]
                bytes.insert(contentsOf: run, at: Int.random(in: 0...bytes.count, using: &random))
            case 2:
                // Near the end: a binary property list's trailer and offset table.
                let index = max(0, bytes.count - Int.random(in: 1...min(bytes.count, 48), using: &random))
                bytes[index] = UInt8.random(in: 0...255, using: &random)
            default:
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
        }
        return bytes
    }
}
