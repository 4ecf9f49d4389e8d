import Dispatch

/// Runs `body` on a Dispatch thread and awaits it: work that blocks on a file or on SQLite's
/// locks (opening a store, nested transactions of several stores) would otherwise hold one of the
/// concurrency pool's few threads.
func onItsOwnThread<T: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
    let outcome: Result<T, Failure> = await withCheckedContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: Result(catching: body)) }
    }
    return try outcome.get()
}
