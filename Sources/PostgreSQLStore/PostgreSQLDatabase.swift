import DataModel
import DataStore
import Foundation
import GRDB
import Logging
import NIOCore
import PostgresNIO
import StoreSchema

/// The PostgreSQL database a store's rows are in, as `DataStore` reads it: the runtime's queries,
/// run on a few reused connections, their values read back as the SQLite storage classes the same
/// values have in a SQLite store.
final class PostgreSQLDatabase: StoreEngine, @unchecked Sendable {
    private let configuration: PostgresConnection.Configuration
    private let logger = Logger(label: "datamodelkit.postgresql")
    /// The most connections open at once; a query beyond waits for one to be free.
    private let maximumConnections: Int
    /// Connections between queries, the number open (idle, in use or connecting), and the queries
    /// waiting for one: each gets a connection, or `nil` to open its own. `lock` guards them.
    private var idle: [PostgresConnection] = []
    private var openConnections = 0
    private var waiting: [EventLoopPromise<PostgresConnection?>] = []
    private var nextID = 0
    private let lock = NSLock()

    /// Whether the store was opened for reading only: writes fail.
    private let isReadOnly: Bool
    /// The threads saves wait on, so that neither an event loop nor Swift's cooperative pool does.
    private static let writers = DispatchQueue(label: "datamodelkit.postgresql.writes", attributes: .concurrent)

    /// The type of each column of the store's tables, by table and column name: what inserts bind.
    private let columnTypes: [String: [String: PostgreSQLValueType]]

    init(
        configuration: PostgresConnection.Configuration, schema: StoreSchema, model: Model, tombstoneColumns: Int, maximumConnections: Int, isReadOnly: Bool
    ) {
        self.configuration = configuration
        let tables = CopiedTable.tables(of: schema, model: model) + CopiedTable.history(tombstoneColumns: tombstoneColumns)
        columnTypes = Dictionary(tables.map { table in
            (table.name, Dictionary(table.columns.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first }))
        }, uniquingKeysWith: { first, _ in first })
        self.isReadOnly = isReadOnly
        self.maximumConnections = max(1, maximumConnections)
    }

    /// The task listening for commits, if the store listens.
    private var listener: Task<Void, Never>?

    deinit {
        listener?.cancel()
        Self.close(idle)
    }

    let dialect: any SQLDialect = PostgreSQLDialect()

    func valueOfAnyStorageClass(_ stored: DatabaseValue) -> DatabaseValue {
        // Bytes that are not a tagged value (another tool's) stay the bytes they are.
        guard case .blob(let data) = stored.storage, let value = try? PostgreSQLValue.untagged(ByteBuffer(bytes: data)) else { return stored }
        return value
    }

    /// Each transaction locks the rows it changes.
    var locksRows: Bool { true }

    /// Saves notify the store's channel as they commit (`LISTEN` and `NOTIFY`).
    var notifiesCommits: Bool { true }

    func observeCommits(toStore storeIdentifier: String, _ onCommit: @escaping @Sendable (Int64?) async -> Void) {
        listen(to: PostgreSQLTransaction.commitChannel(ofStore: storeIdentifier)) { payload in await onCommit(payload.flatMap { Int64($0) }) }
    }

    /// Commits are observed, never checked for.
    func checkingExternalCommits<T>(_ body: (_ changed: Bool, any EngineTransaction) throws -> T) throws -> T {
        try read { try body(false, $0) }
    }

    /// Calls `onCommit` with the payload of every notification of `channel` (sent as its
    /// transaction commits), one call at a time, for as long as the database lives; and with `nil`
    /// when it starts listening, or listens again after losing its connection, since
    /// notifications may have been missed.
    private func listen(to channel: String, _ onCommit: @escaping @Sendable (String?) async -> Void) {
        let (configuration, logger) = (configuration, logger)
        let task = Task {
            while !Task.isCancelled {
                do {
                    let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
                    try? await withTaskCancellationHandler {
                        try await connection.listen(on: channel) { notifications in
                            // Listening now: what committed before is read here, what commits
                            // after is notified.
                            await onCommit(nil)
                            for try await notification in notifications { await onCommit(notification.payload) }
                        }
                    } onCancel: {
                        connection.close().whenComplete { _ in }
                    }
                    try? await connection.close()
                } catch {}
                // The server is out of reach, or ended the session: listen again shortly.
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        lock.withLock {
            listener?.cancel()
            listener = task
        }
    }

    /// The key of the migration lock among the database's advisory locks: "DMKMigr" in ASCII.
    private static let migrationLockKey: Int64 = 0x44_4D_4B_4D_69_67_72

    func withMigrationLock<T>(_ body: () async throws -> T) async throws -> T {
        // A session's advisory lock ends with its session, so a process that dies releases it.
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        do {
            try await connection.query("SELECT pg_advisory_lock(\(Self.migrationLockKey))", logger: logger)
            let result = try await body()
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Closes `connections`, each kept alive until its close ends (a connection must be closed
    /// before it goes).
    private static func close(_ connections: [PostgresConnection]) {
        for connection in connections { connection.close().whenComplete { _ in withExtendedLifetime(connection) {} } }
    }

    func rows(_ sql: SQL, arguments: [DatabaseValue]) async throws -> ReadRows {
        try await rowsReading(PostgreSQLStatement.query(sql, arguments: arguments)).get()
    }

    /// Reads every row first: a connection cannot be held while the caller works on each.
    func forEachRow(_ sql: SQL, arguments: [DatabaseValue], _ body: (RowColumns) -> Void) throws -> Int {
        let rows = try rowsReading(PostgreSQLStatement.query(sql, arguments: arguments)).wait()
        rows.forEach(body)
        return rows.count
    }

    func write<T>(_ body: (any EngineTransaction) throws -> T) throws -> T {
        guard !isReadOnly else { throw PostgreSQLServerError(description: "the store was opened for reading only") }
        // A transaction the server ended to break a deadlock with another wrote nothing: it runs
        // again, the other one having gone on meanwhile.
        for _ in 1..<Self.attemptsPerWrite {
            do {
                return try writeOnce(body)
            } catch let error as PostgreSQLServerError where error.isDeadlock {
                continue
            }
        }
        return try writeOnce(body)
    }

    /// In a `REPEATABLE READ` transaction, which sees one snapshot of the database.
    func read<T>(_ body: (any EngineTransaction) throws -> T) throws -> T {
        try runOnce(body, beginning: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
    }

    /// The most times a write runs when the server ends it to break deadlocks.
    private static let attemptsPerWrite = 3

    private func writeOnce<T>(_ body: (any EngineTransaction) throws -> T) throws -> T {
        // Keys and versions are read again after the rows are locked, which needs each statement
        // to see what committed before it, whatever the server's default.
        try runOnce(body, beginning: "BEGIN ISOLATION LEVEL READ COMMITTED")
    }

    /// Runs `body` in the transaction `begin` starts, committed when it returns.
    private func runOnce<T>(_ body: (any EngineTransaction) throws -> T, beginning begin: String) throws -> T {
        let (connection, transaction) = try beginTransaction(begin)
        defer { release(connection) }
        var committing = false
        do {
            let result = try body(transaction)
            try transaction.writeHeldRows()
            committing = true
            try transaction.run("COMMIT")
            return result
        } catch {
            for handler in transaction.rollbackHandlers { handler() }
            let failure = error as? PostgreSQLServerError
            if failure?.connectionEnded == true {
                // The session ended, and with it the transaction; the connection runs nothing
                // more, and goes. Ended during the commit, the transaction may have committed,
                // unless the commit was never sent.
                try? connection.close().wait()
                if let failure, committing, !failure.wasNotSent {
                    throw CommitOutcomeUnknown(message: "\(failure.description); the connection ended during the commit")
                }
            } else if (try? transaction.run("ROLLBACK")) == nil {
                // A connection whose transaction may still be open is not given to another query.
                try? connection.close().wait()
            }
            throw error
        }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any EngineTransaction) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Self.writers.async { continuation.resume(with: Result { try self.write(body) }) }
        }
    }

    /// A connection in a new transaction. One the server ended is replaced, as for a read: nothing
    /// was written on it yet.
    private func beginTransaction(_ begin: String, mayRetry: Bool = true) throws -> (PostgresConnection, PostgreSQLTransaction) {
        let connection: PostgresConnection
        do {
            connection = try self.connection(new: !mayRetry).wait()
        } catch {
            throw PostgreSQLServerError(error)
        }
        let transaction = PostgreSQLTransaction(connection, columnTypes: columnTypes, logger: logger)
        do {
            try transaction.run(PostgresQuery(unsafeSQL: begin))
            return (connection, transaction)
        } catch let error as PostgreSQLServerError {
            release(connection)
            guard mayRetry, error.connectionEnded else { throw error }
            return try beginTransaction(begin, mayRetry: false)
        }
    }

    /// The rows of `query`, on a connection no other query uses meanwhile. A read whose
    /// connection ended — the server restarted, or ended an idle session — runs once more on a
    /// new connection: it changes nothing, and the caller sees an error only when the server
    /// stays out of reach.
    private func rowsReading(_ query: PostgresQuery, mayRunAgain: Bool = true) -> EventLoopFuture<ReadRows> {
        let rows = connection(new: !mayRunAgain).flatMap { connection in
            connection.queryWhileOpen(query, logger: self.logger).flatMapThrowing(ReadRows.init).always { _ in self.release(connection) }
        }
        return rows.flatMapError { error in
            let failure = PostgreSQLServerError(error)
            guard mayRunAgain, failure.connectionEnded else { return rows.eventLoop.makeFailedFuture(failure) }
            return self.rowsReading(query, mayRunAgain: false)
        }
    }

    /// An idle connection, or a new one while fewer than `maximumConnections` are open, or else
    /// the next one a query gives back. A `new` connection leaves the idle ones behind, closed:
    /// what ended one likely ended them all.
    private func connection(new: Bool) -> EventLoopFuture<PostgresConnection> {
        let eventLoop = PostgresConnection.defaultEventLoopGroup.any()
        enum Outcome {
            case reuse(PostgresConnection)
            case open
            case wait(EventLoopPromise<PostgresConnection?>)
        }
        var stale: [PostgresConnection] = []
        let outcome = lock.withLock { () -> Outcome in
            if new { swap(&stale, &idle) }
            var reused: PostgresConnection?
            while reused == nil, let connection = idle.popLast() {
                if connection.isClosed { stale.append(connection) } else { reused = connection }
            }
            openConnections -= stale.count
            if let reused { return .reuse(reused) }
            guard openConnections < maximumConnections else {
                let waiter = eventLoop.makePromise(of: PostgresConnection?.self)
                waiting.append(waiter)
                return .wait(waiter)
            }
            openConnections += 1
            return .open
        }
        Self.close(stale)
        let handedOver: EventLoopFuture<PostgresConnection?>
        switch outcome {
        case .reuse(let connection): return eventLoop.makeSucceededFuture(connection)
        case .open: handedOver = eventLoop.makeSucceededFuture(nil)
        case .wait(let waiter): handedOver = waiter.futureResult
        }
        return handedOver.flatMap { connection in
            if let connection { return eventLoop.makeSucceededFuture(connection) }
            let id = self.lock.withLock {
                self.nextID += 1
                return self.nextID
            }
            return PostgresConnection.connect(on: eventLoop, configuration: self.configuration, id: id, logger: self.logger)
                .flatMapErrorThrowing { error in
                    self.releaseSlot()
                    throw error
                }
        }
    }

    /// Gives `connection` back after a query: to the first waiting query, else to the idle ones;
    /// a closed connection frees its place.
    private func release(_ connection: PostgresConnection) {
        guard !connection.isClosed else { return releaseSlot() }
        let waiter = lock.withLock { () -> EventLoopPromise<PostgresConnection?>? in
            guard !waiting.isEmpty else {
                idle.append(connection)
                return nil
            }
            return waiting.removeFirst()
        }
        waiter?.succeed(connection)
    }

    /// A connection that closed or never opened frees its place: the first waiting query opens one.
    private func releaseSlot() {
        let waiter = lock.withLock { () -> EventLoopPromise<PostgresConnection?>? in
            guard !waiting.isEmpty else {
                openConnections -= 1
                return nil
            }
            return waiting.removeFirst()
        }
        waiter?.succeed(nil)
    }
}
