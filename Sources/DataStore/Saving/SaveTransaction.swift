import GRDB

/// The statements of one save or batch request, in the write transaction of the store's engine:
/// ``SaveWriter`` and the batch writers decide what to write, and a transaction writes it as its
/// engine takes it best — SQLite one prepared row at a time, a server many rows per round trip.
protocol SaveTransaction: SQLTransaction, AnyObject {
    /// Writes `object` as the new row `key`; `destinationKey` gives the permanent ID of a to-one's
    /// destination. A server may hold the row back and write it with others before the next statement.
    func insert(_ object: SaveChanges.Row, key: Int64, destinationKey: (ObjectID?) -> ObjectID?) throws

    /// Calls `body` with the columns of each row `sql` selects: on SQLite as each is read, for
    /// many rows that need not all be in memory at once.
    func forEachRow(_ sql: String, _ arguments: [DatabaseValue], _ body: (RowColumns) -> Void) throws

    /// Runs `write`. When a unique index refuses one of its rows, the refusal, with nothing of
    /// `write` left written; otherwise `nil`. Other errors are thrown. `mayBeRefused` is false
    /// for writes no unique index of the model can refuse, which a server then need not guard.
    func refusal(of write: () throws -> Void, mayBeRefused: Bool) throws -> (any Error)?

    /// Writes the rows `insert` held back: the save's last statements.
    func writeHeldRows() throws

    /// Writes the save's transaction of the persistent history; its number.
    func writeHistory(_ history: HistoryRecorder, author: String?, contextName: String?) throws -> Int64

    /// Calls `body` if the transaction rolls back, its commit included.
    func onRollback(_ body: @escaping @Sendable () -> Void)
}
