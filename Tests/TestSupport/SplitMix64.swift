import Foundation

/// A small, fast, seedable generator (SplitMix64), so that randomized tests replay exactly.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SplitMix64 {
    /// A generator for a test whose randomness cannot be fixed in advance (when a process is
    /// killed): seeded from `variable` when the environment sets it, else at random. The seed is
    /// printed, so that a failure replays with `variable=SEED`.
    public static func replayable(_ test: String, seedIn variable: String) -> SplitMix64 {
        let seed = ProcessInfo.processInfo.environment[variable].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("\(test): seed \(seed) (\(variable)=\(seed) replays it)")
        return SplitMix64(seed: seed)
    }
}
