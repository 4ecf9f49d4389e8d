import Logging
import NIOCore
import PostgresNIO

extension PostgresConnection {
    /// Runs `query`, first checking on the connection's own event loop that it is still open.
    ///
    /// PostgresNIO hands a query to its channel without waiting to hear whether the handoff
    /// worked. When the server ends a session, the channel closes on its event loop and removes
    /// its handlers a moment later; a query handed over from another thread in between reaches no
    /// handler and is dropped, and its result never comes. On the event loop itself, an open
    /// channel still has its handlers, so the query runs, or fails as the connection ends.
    func queryWhileOpen(_ query: PostgresQuery, logger: Logger) -> EventLoopFuture<PostgresQueryResult> {
        eventLoop.flatSubmit {
            guard !self.isClosed else { return self.eventLoop.makeFailedFuture(PostgreSQLServerError.connectionClosed) }
            return self.query(query, logger: logger)
        }
    }
}
