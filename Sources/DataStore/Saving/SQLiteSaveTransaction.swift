import GRDB

/// A save's statements in a SQLite write transaction: each inserted entity's `INSERT` prepared
/// once and bound row by row through SQLite's C API, the other statements through GRDB's cache.
final class SQLiteSaveTransaction: SaveTransaction {
    private let db: Database
    private let store: PersistentStore
    /// Whether each statement is logged, checked once per save rather than once per row.
    private let logsSQL: Bool
    /// Each inserted entity's prepared `INSERT`, by entity number: reused from row to row, as a
    /// save may insert many thousands.
    private var insertStatements: [Statement?]

    init(_ db: Database, store: PersistentStore) {
        self.db = db
        self.store = store
        logsSQL = store.logsSQL
        insertStatements = Array(repeating: nil, count: store.entities.count + 1)
    }


    func insert(_ object: SaveChanges.Row, key: Int64, destinationKey: (ObjectID?) -> ObjectID?) throws {
        let entity = object.entity
        if insertStatements[entity.number] == nil { insertStatements[entity.number] = try db.cachedStatement(sql: entity.insertStatement) }
        var row = ParameterBinder(insertStatements[entity.number]!, logging: logsSQL)
        object.bindInsertedRow(key: key, destinationKey: destinationKey, to: &row)
        if let values = row.logged { store.log(entity.insertStatement, values) }
        try row.execute()
    }

    func execute(_ sql: String, _ arguments: [DatabaseValue]) throws -> Int {
        try store.execute(SQLFragment(sql: sql, arguments: arguments), cached: true, in: db)
        return db.changesCount
    }

    func rows(_ sql: String, _ arguments: [DatabaseValue]) throws -> ReadRows {
        try ReadRows(db.cachedStatement(sql: sql), arguments: arguments)
    }

    func forEachRow(_ sql: String, _ arguments: [DatabaseValue], _ body: (RowColumns) -> Void) throws {
        store.log(sql, arguments)
        _ = try db.cachedStatement(sql: sql).forEachRow(arguments: arguments) { body(.statement($0)) }
    }

    func writeHistory(_ history: HistoryRecorder, author: String?, contextName: String?) throws -> Int64 {
        try history.write(author: author, contextName: contextName, tombstoneColumns: store.tombstoneColumns, in: db)
    }

    func onRollback(_ body: @escaping @Sendable () -> Void) {
        db.afterNextTransaction(onCommit: { _ in }, onRollback: { _ in body() })
    }

    /// Nothing is held back: SQLite writes each row at once.
    func writeHeldRows() {}

    func refusal(of write: () throws -> Void, mayBeRefused: Bool) throws -> (any Error)? {
        do {
            try write()
            return nil
        } catch let error as DatabaseError
            where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
            // A failed statement leaves SQLite's transaction as it was before it.
            return error
        }
    }
}
