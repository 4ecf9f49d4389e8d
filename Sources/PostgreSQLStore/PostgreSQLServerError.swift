import DataStore
import PostgresNIO

/// Why PostgreSQL refused or could not run a query, said as the server or the connection said it:
/// PostgresNIO describes its errors generically so that no bound value reaches a log by accident,
/// and neither does this (no query text, no values), but the server's message and SQLSTATE, or
/// what happened to the connection, are what a developer needs.
struct PostgreSQLServerError: StoreEngineError, CustomStringConvertible {
    let description: String
    /// Whether the connection ended (the server restarted, was shut down, or ended the session):
    /// a read can run again on a new one.
    let connectionEnded: Bool
    /// The server's SQLSTATE, when the server refused the query.
    let sqlState: String?
    /// Whether the query was never sent: the connection was found closed first.
    let wasNotSent: Bool

    /// An error of the store's own, not the server's.
    init(description: String) {
        self.description = description
        connectionEnded = false
        sqlState = nil
        wasNotSent = false
    }

    /// A pooled connection found closed before a query was sent on it: the server ended the
    /// session while it was idle.
    static let connectionClosed = PostgreSQLServerError(closedConnection: ())

    private init(closedConnection: Void) {
        description = "PostgreSQL connection: the connection was closed"
        connectionEnded = true
        sqlState = nil
        wasNotSent = true
    }

    init(_ error: any Error) {
        if let error = error as? PostgreSQLServerError {
            self = error
            return
        }
        wasNotSent = false
        guard let error = error as? PSQLError else {
            description = "\(error)"
            connectionEnded = false
            sqlState = nil
            return
        }
        let state = error.serverInfo?[.sqlState]
        sqlState = state
        if let message = error.serverInfo?[.message] {
            description = "PostgreSQL: \(message)" + (state.map { " (SQLSTATE \($0))" } ?? "")
        } else {
            description = "PostgreSQL connection: \(error.code)"
        }
        // Class 08: connection exception; class 57: operator intervention (the session was ended).
        connectionEnded = [.serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .connectionError].contains(error.code)
            || state?.hasPrefix("08") == true || state?.hasPrefix("57") == true
    }
}

extension PostgreSQLServerError {
    /// A unique index refused a row (`unique_violation`).
    var isUniqueViolation: Bool { sqlState == "23505" }

    /// The server ended the transaction to break a deadlock (`deadlock_detected`).
    var isDeadlock: Bool { sqlState == "40P01" }

    /// The server's disk had no room (`disk_full`).
    var isStorageFull: Bool { sqlState == "53100" }
}
