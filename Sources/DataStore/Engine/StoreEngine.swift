import GRDB

/// The engine that holds a store's rows: SQLite (`SQLiteEngine`), or one a module of its own
/// brings, which DataStore does not know.
///
/// The runtime decides what to read and write, for every engine alike, and hands the engine its
/// statements as `SQL` values, which the engine renders with its `dialect` to run them. The engine reads each value back as the SQLite storage class the
/// same value has in a SQLite store, so the runtime turns rows into objects one way for all.
package protocol StoreEngine: Sendable {
    /// The SQL the engine speaks where engines differ.
    var dialect: any SQLDialect { get }

    /// Whether a write transaction locks the rows it changes, not the whole store, until it
    /// commits: saves then take rows in one order, so that two never wait for each other in a
    /// circle, and a missing `Z_PRIMARYKEY` row is an error, since nothing else would keep other
    /// writers from the keys it hands out.
    var locksRows: Bool { get }

    /// Calls `body` with the columns of each row `sql` selects, the calling thread waiting: what a
    /// fault fired by reading a property needs. The number of rows.
    func forEachRow(_ sql: SQL, arguments: [DatabaseValue], _ body: (RowColumns) -> Void) throws -> Int

    /// Every row `sql` selects, read without blocking the caller's isolation.
    func rows(_ sql: SQL, arguments: [DatabaseValue]) async throws -> ReadRows

    /// Runs `body`'s queries so that they see one snapshot of the store, the calling thread
    /// waiting: reads that must agree with each other.
    func read<T>(_ body: (any EngineTransaction) throws -> T) throws -> T

    /// Runs `body` in one write transaction, committed when it returns and rolled back when it
    /// throws, the calling thread waiting: the synchronous `save()`.
    func write<T>(_ body: (any EngineTransaction) throws -> T) throws -> T

    /// Runs `body` in one write transaction as `write(_:)` does, never on the caller's thread:
    /// the asynchronous `save()`.
    func write<T: Sendable>(_ body: @escaping @Sendable (any EngineTransaction) throws -> T) async throws -> T

    /// A value read from a column that holds values of any storage class, as SQLite's columns
    /// do (the history's tombstones), as the engine keeps it: the value itself.
    func valueOfAnyStorageClass(_ stored: DatabaseValue) -> DatabaseValue

    /// Whether the engine can tell the store of other processes' commits as they happen
    /// (`observeCommits(toStore:_:)`). One that cannot (SQLite, which tells no one when another
    /// process writes a file) is asked with `checkingExternalCommits(_:)`.
    var notifiesCommits: Bool { get }

    /// Calls `onCommit` whenever another process commits a save that wrote a history transaction
    /// to the store whose `Z_UUID` is `storeIdentifier`, one call at a time, with the transaction's
    /// number (`nil` when unknown, and when the engine starts or starts again to listen, since
    /// commits may have been missed), for as long as the engine lives.
    func observeCommits(toStore storeIdentifier: String, _ onCommit: @escaping @Sendable (Int64?) async -> Void)

    /// Runs `body` on the connection saves write on, between saves, with whether another
    /// connection or process committed since the last call (or since the engine opened): a save
    /// of this store is then never between its commit and its note of the history transaction it
    /// wrote. An engine that observes commits passes `false`.
    func checkingExternalCommits<T>(_ body: (_ changed: Bool, any EngineTransaction) throws -> T) throws -> T

    /// Runs `body` while this process holds the store's migration lock, which one process at a
    /// time holds: a migration and its custom stages' contexts run whole before another process
    /// reads the store's version. An engine whose write transactions hold the whole store runs
    /// `body` as it is.
    func withMigrationLock<T>(_ body: () async throws -> T) async throws -> T
}

/// A transaction of a store's engine: a save's, a batch request's, a migration's, or a reading's.
/// Its statements run in turn on one connection.
package protocol EngineTransaction: AnyObject {
    /// Runs `sql`; the number of rows it changed. Without arguments `sql` may hold several
    /// statements; with them it is one. A statement run once per object of a save is `prepare`d.
    func execute(_ sql: SQL, arguments: [DatabaseValue]) throws -> Int

    /// Every row `sql` selects.
    func rows(_ sql: SQL, arguments: [DatabaseValue]) throws -> ReadRows

    /// Calls `body` with the columns of each row `sql` selects, as each is read where the engine
    /// can: for many rows that need not all be in memory at once.
    func forEachRow(_ sql: SQL, arguments: [DatabaseValue], _ body: (RowColumns) -> Void) throws

    /// What inserts rows of `columns` into `table`, one `insertRow(_:)` per row: SQLite runs a
    /// prepared `INSERT` per row; a server holds rows back and writes many per statement before
    /// the transaction's next other statement.
    func inserter(into table: String, columns: [String]) throws -> any RowInserter

    /// `sql`, one statement with arguments, made ready to run many times in this transaction: a
    /// save's `UPDATE` and `DELETE` of each object. SQLite prepares it once; an engine without a
    /// preparation of its own runs it through `execute(_:arguments:)` (the default).
    func prepare(_ sql: SQL) throws -> any PreparedStatement

    /// Runs `write`. When a unique index refuses one of its rows, the refusal, with nothing of
    /// `write` left written; otherwise `nil`. Other errors are thrown. `mayBeRefused` is false
    /// for writes no unique index of the model can refuse, which the engine then need not guard.
    func refusal(of write: () throws -> Void, mayBeRefused: Bool) throws -> (any Error)?

    /// Writes `record` as a transaction of the store's persistent history, in the engine's
    /// layout of it; its number. Readers of the history read it with `historyQueries`.
    func writeHistory(_ record: HistoryRecord) throws -> Int64

    /// Calls `body` if the transaction rolls back, its commit included.
    func onRollback(_ body: @escaping @Sendable () -> Void)
}

extension EngineTransaction {
    package func prepare(_ sql: SQL) throws -> any PreparedStatement {
        StatementRunByText(sql: sql, transaction: self)
    }
}

/// A statement of a transaction that runs many times with new arguments; only inside the
/// transaction that prepared it, on its connection.
package protocol PreparedStatement: AnyObject {
    /// Runs the statement with `arguments`; the number of rows it changed.
    func execute(_ arguments: [DatabaseValue]) throws -> Int
}

/// A statement run as text each time, for an engine that prepares none.
private final class StatementRunByText: PreparedStatement {
    private let sql: SQL
    private let transaction: any EngineTransaction

    init(sql: SQL, transaction: any EngineTransaction) {
        self.sql = sql
        self.transaction = transaction
    }

    func execute(_ arguments: [DatabaseValue]) throws -> Int {
        try transaction.execute(sql, arguments: arguments)
    }
}

/// Writes the rows of one table, one at a time.
package protocol RowInserter: AnyObject {
    /// Writes the row whose values `row` gives, in the order of the columns the inserter was made
    /// with (or holds it back to write with others).
    func insertRow(_ row: some InsertedRow) throws
}

/// A row to insert: it hands its values, in column order, to where the engine takes them —
/// SQLite's straight into its prepared statement, without collecting them. A closure rather than
/// a generic parameter, so that the row's own code runs specialized whoever takes the values.
package protocol InsertedRow {
    func forEachValue(_ body: (DatabaseValue) -> Void)
}

/// The values themselves, as a row.
extension Array: InsertedRow where Element == DatabaseValue {
    package func forEachValue(_ body: (DatabaseValue) -> Void) {
        for value in self { body(value) }
    }
}

/// What an engine throws when the connection ended during `COMMIT`: the transaction may have
/// committed or not (`SaveError.commitOutcomeUnknown`).
package struct CommitOutcomeUnknown: Error, CustomStringConvertible {
    package let message: String

    package init(message: String) {
        self.message = message
    }

    package var description: String { message }
}
