import DataStore
import Foundation
import GRDB
import Logging
import NIOCore
import PostgresNIO

/// The PostgreSQL database a store's rows are in, as `DataStore` reads it: the runtime's queries,
/// run on a few reused connections, their values read back as the SQLite storage classes the same
/// values have in a SQLite store.
final class PostgreSQLDatabase: ServerDatabase, @unchecked Sendable {
    private let configuration: PostgresConnection.Configuration
    private let queryText: PostgreSQLQueryText
    private let logger = Logger(label: "datamodelkit.postgresql")
    /// Connections between queries. `lock` guards them and `nextID`.
    private var idle: [PostgresConnection] = []
    private var nextID = 0
    private let lock = NSLock()

    init(configuration: PostgresConnection.Configuration, names: Set<String>) {
        self.configuration = configuration
        queryText = PostgreSQLQueryText(names: names)
    }

    deinit {
        Self.close(idle)
    }

    /// Closes `connections`, each kept alive until its close ends (a connection must be closed
    /// before it goes).
    private static func close(_ connections: [PostgresConnection]) {
        for connection in connections { connection.close().whenComplete { _ in withExtendedLifetime(connection) {} } }
    }

    func rows(_ sql: String, arguments: [DatabaseValue]) async throws -> ReadRows {
        try await rowsReading(queryText.query(sql, arguments: arguments)).get()
    }

    func rowsWaiting(_ sql: String, arguments: [DatabaseValue]) throws -> ReadRows {
        try rowsReading(queryText.query(sql, arguments: arguments)).wait()
    }

    /// The rows of `query`, on a connection no other query uses meanwhile. A read whose
    /// connection ended — the server restarted, or ended an idle session — runs once more on a
    /// new connection: it changes nothing, and the caller sees an error only when the server
    /// stays out of reach.
    private func rowsReading(_ query: PostgresQuery, again: Bool = true) -> EventLoopFuture<ReadRows> {
        let rows = withConnection(new: !again) { connection in
            connection.query(query, logger: self.logger).flatMapThrowing { result in
                var columnCount = 0
                var values: [DatabaseValue] = []
                for row in result.rows {
                    columnCount = row.count
                    for cell in row { values.append(try PostgreSQLCells.value(of: cell)) }
                }
                return ReadRows(columnCount: columnCount, values: values)
            }
        }
        return rows.flatMapError { error in
            let failure = PostgreSQLServerError(error)
            guard again, failure.connectionEnded else { return rows.eventLoop.makeFailedFuture(failure) }
            return self.rowsReading(query, again: false)
        }
    }

    /// Runs `body` on an idle connection, or a new one, which goes back to the idle ones after,
    /// unless it closed (a server that went away): the next query connects anew. A `new`
    /// connection leaves the idle ones behind, closed: what ended one likely ended them all.
    private func withConnection<T: Sendable>(new: Bool = false, _ body: @escaping @Sendable (PostgresConnection) -> EventLoopFuture<T>) -> EventLoopFuture<T> {
        let (reused, id) = lock.withLock { () -> (PostgresConnection?, Int) in
            if new {
                Self.close(idle)
                idle.removeAll()
            }
            while let connection = idle.popLast() {
                if !connection.isClosed { return (connection, 0) }
            }
            nextID += 1
            return (nil, nextID)
        }
        let connection = reused.map { $0.eventLoop.makeSucceededFuture($0) }
            ?? PostgresConnection.connect(
                on: PostgresConnection.defaultEventLoopGroup.any(), configuration: configuration, id: id, logger: logger)
        return connection.flatMap { connection in
            body(connection).always { _ in
                guard !connection.isClosed else { return }
                self.lock.withLock { self.idle.append(connection) }
            }
        }
    }
}
