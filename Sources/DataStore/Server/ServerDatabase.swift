import GRDB

/// A database server that holds a store's rows, as a module of its own implements it, which
/// DataStore does not know: it runs the runtime's queries — `?` placeholders, the names of the
/// store's layout, its own `dialect` — and reads each value back as the SQLite storage class the
/// same value has in a SQLite store, so the runtime turns rows into objects one way for both.
package protocol ServerDatabase: Sendable {
    /// The SQL the server speaks where it differs from SQLite.
    var dialect: any SQLDialect { get }

    /// Every row `sql` selects, read without blocking the caller.
    func rows(_ sql: String, arguments: [DatabaseValue]) async throws -> ReadRows

    /// Every row `sql` selects, the calling thread waiting for them: what a fault fired by reading
    /// a property needs. Servers should fire faults in batches with `fulfillFaults(of:)` or
    /// prefetching instead.
    func rowsWaiting(_ sql: String, arguments: [DatabaseValue]) throws -> ReadRows

    /// Runs `body` in one transaction, committed when it returns and rolled back when it throws,
    /// the calling thread waiting for each statement: the synchronous `save()`.
    func writeWaiting<T>(_ body: (any ServerTransaction) throws -> T) throws -> T

    /// Runs `body`'s queries in one read-only transaction that sees one snapshot of the database
    /// (`REPEATABLE READ`), the calling thread waiting: reads that must agree with each other.
    func readWaiting<T>(_ body: (any ServerTransaction) throws -> T) throws -> T

    /// Runs `body` in one transaction as `writeWaiting(_:)` does, on a thread of the server's own
    /// that may wait, never the caller's: the asynchronous `save()`.
    func write<T: Sendable>(_ body: @escaping @Sendable (any ServerTransaction) throws -> T) async throws -> T

    /// A value read from a column that holds values of any storage class, as SQLite's columns
    /// do (the history's tombstones), as the server keeps it: the value itself.
    func valueOfAnyStorageClass(_ stored: DatabaseValue) -> DatabaseValue

    /// Calls `onCommit` with the payload of every notification of `channel` (sent as its
    /// transaction commits), one call at a time, for as long as the database lives; and with `nil`
    /// when it starts listening, or listens again after losing its connection, since
    /// notifications may have been missed.
    func listen(to channel: String, _ onCommit: @escaping @Sendable (String?) async -> Void)

    /// Runs `body` while this process holds the database's migration lock, which one process at a
    /// time holds, on a connection of its own: a migration and its custom stages' contexts run
    /// whole before another process reads the store's version.
    func withMigrationLock<T>(_ body: () async throws -> T) async throws -> T
}

/// A server's write transaction, its statements run in turn on one connection.
package protocol ServerTransaction: AnyObject {
    /// Runs `sql`; the number of rows it changed.
    func execute(_ sql: String, arguments: [DatabaseValue]) throws -> Int

    /// Every row `sql` selects.
    func rows(_ sql: String, arguments: [DatabaseValue]) throws -> ReadRows

    /// Inserts rows of `columns` into `table`, in as few statements as the server takes: `values`
    /// holds the first row's values, then the next row's….
    func insert(into table: String, columns: [String], values: [DatabaseValue]) throws

    /// Runs `write` so that it can be undone alone: when a unique index refuses one of its rows,
    /// its statements are undone, the transaction goes on, and the refusal is returned.
    func refusal(of write: () throws -> Void) throws -> (any Error)?

    /// Calls `body` if the transaction rolls back, its commit included.
    func onRollback(_ body: @escaping @Sendable () -> Void)

    /// Notifies the listeners of `channel` with `payload` when the transaction commits.
    func notify(_ channel: String, payload: String) throws
}

/// What a server throws when the connection ended during `COMMIT`: the transaction may have
/// committed or not (`SaveError.commitOutcomeUnknown`).
package struct CommitOutcomeUnknown: Error, CustomStringConvertible {
    package let message: String

    package init(message: String) {
        self.message = message
    }

    package var description: String { message }
}

/// What a server's store throws when asked for a SQLite database: code that reads one takes the
/// server's path first, so this is a bug of the runtime's, reported rather than crashing.
struct SQLiteStoreRequired: Error, CustomStringConvertible {
    var description: String { "a SQLite database was asked of a server's store" }
}
