import GRDB

/// Read-only connections to a store file for reads of one statement — a fault's row, a fetch —
/// each taken by one read at a time and kept for the next. GRDB's pool of readers does the same
/// through a barrier queue, a semaphore, a group and a key path made on every read, which cost a
/// fault two thirds of its time; here taking a connection is a lock held for one array operation.
///
/// There are as many connections as reads ever ran at once, each on a thread of its own.
final class StatementReaders: Sendable {
    private let path: String
    private let configuration: Configuration
    private let idle = Locked<[DatabaseQueue]>([])

    /// Readers of `pool`'s file, set up as its own readers are.
    init(of pool: DatabasePool) {
        path = pool.path
        var configuration = pool.configuration
        configuration.readonly = true
        // As GRDB's readers: a WAL reader meets a lock only in rare cases (another process
        // recovering the file after a crash), which pass.
        configuration.busyMode = .timeout(10)
        self.configuration = configuration
    }

    /// Runs `body` on a connection no other read uses meanwhile, outside any transaction.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let reader = try idle.withLock { $0.popLast() } ?? DatabaseQueue(path: path, configuration: configuration)
        defer { idle.withLock { $0.append(reader) } }
        return try reader.inDatabase(body)
    }
}
