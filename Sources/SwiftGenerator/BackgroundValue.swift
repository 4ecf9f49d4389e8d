import Dispatch

/// A value computed on another thread while the caller goes on; reading `value` waits for it.
final class BackgroundValue<Value: Sendable>: @unchecked Sendable {
    // Written once by the background work; read only after `group.wait()`, which orders the two.
    private var result: Value?
    private let group = DispatchGroup()

    init(_ compute: @escaping @Sendable () -> Value) {
        DispatchQueue.global().async(group: group) { self.result = compute() }
    }

    var value: Value {
        group.wait()
        return result!
    }
}
