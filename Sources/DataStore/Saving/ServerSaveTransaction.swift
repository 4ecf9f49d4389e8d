import GRDB

/// A save's statements in a server's transaction. Inserted rows are held back and written many
/// to a statement just before the next other statement, as one round trip per row would bound
/// a save of many objects by the network's latency.
final class ServerSaveTransaction: SaveTransaction {
    private let transaction: any ServerTransaction
    private let store: PersistentStore
    /// The rows held back, by entity number: each entity's values, row after row.
    private var pending: [Int: [DatabaseValue]] = [:]

    init(_ transaction: any ServerTransaction, store: PersistentStore) {
        self.transaction = transaction
        self.store = store
    }

    func insert(_ object: SaveChanges.Row, key: Int64, destinationKey: (ObjectID?) -> ObjectID?) throws {
        var row = ServerRowValues(values: pending.removeValue(forKey: object.entity.number) ?? [])
        object.bindInsertedRow(key: key, destinationKey: destinationKey, to: &row)
        pending[object.entity.number] = row.values
    }

    func execute(_ sql: String, _ arguments: [DatabaseValue]) throws -> Int {
        try writeHeldRows()
        store.log(sql, arguments)
        return try transaction.execute(sql, arguments: arguments)
    }

    func rows(_ sql: String, _ arguments: [DatabaseValue]) throws -> ReadRows {
        try writeHeldRows()
        return try store.logged(SQLFragment(sql: sql, arguments: arguments), { try transaction.rows(sql, arguments: arguments) }, rows: \.count)
    }

    func forEachRow(_ sql: String, _ arguments: [DatabaseValue], _ body: (RowColumns) -> Void) throws {
        try rows(sql, arguments).forEach(body)
    }

    /// Writes the history's transaction and changes, and notifies the store's other processes as
    /// the transaction commits (`NOTIFY`, which the server delivers on commit only).
    func writeHistory(_ history: HistoryRecorder, author: String?, contextName: String?) throws -> Int64 {
        try writeHeldRows()
        let number = try history.write(author: author, contextName: contextName, tombstoneColumns: store.tombstoneColumns, in: transaction, dialect: store.dialect)
        try transaction.notify(store.commitChannel, payload: "\(number)")
        return number
    }

    func onRollback(_ body: @escaping @Sendable () -> Void) {
        transaction.onRollback(body)
    }

    func refusal(of write: () throws -> Void, mayBeRefused: Bool) throws -> (any Error)? {
        guard mayBeRefused else {
            try write()
            return nil
        }
        try writeHeldRows()
        return try transaction.refusal {
            try write()
            try writeHeldRows()
        }
    }

    func writeHeldRows() throws {
        for number in pending.keys.sorted() {
            guard let values = pending.removeValue(forKey: number), let entity = store.entity(number: number) else { continue }
            store.log(entity.insertStatement, [])
            try transaction.insert(into: entity.tableName, columns: entity.insertColumns, values: values)
        }
    }
}

/// An inserted row's values for a server, appended to the rows before it, as SQLite stores them:
/// the server binds each as its column's type (a UUID's 16 bytes as a `uuid`, a decimal as the
/// exact text of `numeric`).
private struct ServerRowValues: InsertedRowValues {
    var values: [DatabaseValue]

    mutating func bind(_ value: DatabaseValue) {
        values.append(value)
    }
}
