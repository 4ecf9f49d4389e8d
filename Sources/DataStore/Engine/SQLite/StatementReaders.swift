import GRDB

/// Read-only connections to a store file for reads of one statement — a fault's row, a fetch —
/// each taken by one read at a time and given back after it. GRDB's pool of readers does the same
/// through a barrier queue, a semaphore, a group and a key path made on every read, which cost a
/// fault two thirds of its time; here taking a connection is a lock held for one array operation.
///
/// A connection is made when every other is busy; as many are kept idle as GRDB's pool would
/// keep readers (`maximumReaderCount`), and any beyond that close as they are given back.
final class StatementReaders: Sendable {
    private let path: String
    private let configuration: Configuration
    private let idleLimit: Int
    private let idle = Locked<[DatabaseQueue]>([])

    /// Readers of `pool`'s file, set up as its own readers are.
    init(of pool: DatabasePool) {
        path = pool.path
        var configuration = pool.configuration
        configuration.readonly = true
        // As GRDB's readers: wait out the rare lock a WAL reader meets (another process
        // recovering the file after a crash) rather than fail.
        configuration.busyMode = .timeout(10)
        self.configuration = configuration
        idleLimit = pool.configuration.maximumReaderCount
    }

    /// Runs `body` on a connection no other read uses meanwhile, outside any transaction.
    ///
    /// Unlike GRDB's readers, a connection clears no schema cache first: the statements read here
    /// name their columns, and SQLite prepares a statement again when another connection changed
    /// the schema.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let reader = try idle.withLock { $0.popLast() } ?? DatabaseQueue(path: path, configuration: configuration)
        defer { giveBack(reader) }
        return try reader.inDatabase(body)
    }

    private func giveBack(_ reader: DatabaseQueue) {
        let kept = idle.withLock { idle in
            guard idle.count < idleLimit else { return false }
            idle.append(reader)
            return true
        }
        if !kept { try? reader.close() }
    }

    /// Closes the idle connections. The store's writer must close after them: the last connection
    /// to close folds the log into the file and removes it, which a read-only one cannot do.
    func close() {
        let readers = idle.withLock { idle in
            defer { idle = [] }
            return idle
        }
        for reader in readers { try? reader.close() }
    }
}
