/// The continuations of a controller's `snapshots` sequences. A reference with its own lock:
/// a sequence's termination handler may run anywhere, the controller stays on its isolation.
final class SnapshotStreams: Sendable {
    private let continuations = Locked<[UInt64: AsyncStream<FetchedResultsSnapshot>.Continuation]>([:])
    private let nextToken = Locked<UInt64>(0)

    var isEmpty: Bool { continuations.withLock { $0.isEmpty } }

    func add(_ continuation: AsyncStream<FetchedResultsSnapshot>.Continuation) {
        let token = nextToken.withLock { value in
            value += 1
            return value
        }
        continuations.withLock { $0[token] = continuation }
        continuation.onTermination = { [weak self] _ in self?.continuations.withLock { $0[token] = nil } }
    }

    func yield(_ snapshot: FetchedResultsSnapshot) {
        for continuation in continuations.withLock({ Array($0.values) }) { continuation.yield(snapshot) }
    }

    func finish() {
        for continuation in continuations.withLock({ Array($0.values) }) { continuation.finish() }
    }
}
