import GRDB

/// A database server that holds a store's rows, as the module that speaks to it implements it
/// (`PostgreSQLStore`): it runs the runtime's queries — `?` placeholders, the names of the store's
/// layout, `SQLDialect.postgreSQL` — and reads each value back as the SQLite storage class the same
/// value has in a SQLite store, so the runtime turns rows into objects one way for both.
package protocol ServerDatabase: Sendable {
    /// Every row `sql` selects, read without blocking the caller.
    func rows(_ sql: String, arguments: [DatabaseValue]) async throws -> ReadRows

    /// Every row `sql` selects, the calling thread waiting for them: what a fault fired by reading
    /// a property needs. Servers should fire faults in batches with `fulfillFaults(of:)` or
    /// prefetching instead.
    func rowsWaiting(_ sql: String, arguments: [DatabaseValue]) throws -> ReadRows
}

/// What writing to a server's store throws: it is open for reading only.
struct ReadOnlyServerStore: Error, CustomStringConvertible {
    var description: String { "the store is on a server and open for reading only" }
}
