/// The durations of each contender's rounds in an interleaved comparison, by name, and their
/// medians: a ratio of medians of rounds run side by side is what the comparisons report.
public final class RoundTimings {
    private var durations: [String: [Duration]] = [:]

    public init() {}

    /// Runs `body` and records its duration under `name`.
    public func measure(_ name: String, _ body: () throws -> Void) rethrows {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        record(clock.now - start, for: name)
    }

    func record(_ duration: Duration, for name: String) {
        durations[name, default: []].append(duration)
    }

    /// Whether any round of `name` was measured.
    public func contains(_ name: String) -> Bool { durations[name] != nil }

    /// The median duration of `name`'s rounds, in milliseconds.
    public func median(_ name: String) -> Double {
        let sorted = (durations[name] ?? []).sorted()
        let components = sorted[sorted.count / 2].components
        return Double(components.seconds) * 1_000 + Double(components.attoseconds) / 1e15
    }
}

extension RoundTimings {
    /// Runs the asynchronous `body` and records its duration under `name`.
    nonisolated(nonsending) public func measure(_ name: String, _ body: () async throws -> Void) async rethrows {
        let clock = ContinuousClock()
        let start = clock.now
        try await body()
        record(clock.now - start, for: name)
    }
}
