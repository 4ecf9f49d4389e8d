import GRDB

/// The statements of one save or batch request, in a write transaction of the store's engine:
/// ``SaveWriter`` and the batch writers decide what to write, the engine's transaction writes it,
/// and this logs each statement and keeps each table's inserter for the save's rows.
final class SaveTransaction: SQLTransaction {
    let engine: any EngineTransaction
    private let store: PersistentStore
    /// Whether each statement is logged, checked once per save rather than once per row.
    private let logsSQL: Bool
    /// Each inserted entity's inserter, by entity number: reused from row to row, as a save may
    /// insert many thousands.
    @exclusivity(unchecked) private var inserters: [(any RowInserter)?]

    init(_ engine: any EngineTransaction, store: PersistentStore) {
        self.engine = engine
        self.store = store
        logsSQL = store.logsSQL
        inserters = Array(repeating: nil, count: store.entities.count + 1)
    }

    /// Writes `object` as the new row `key`; `permanentIDs` give the rows of its to-ones'
    /// destinations inserted by the same save, and without them its to-ones are written empty.
    func insert(_ object: SaveChanges.Row, key: Int64, permanentIDs: PermanentIDs?) throws {
        let entity = object.entity
        if inserters[entity.number] == nil { inserters[entity.number] = try engine.inserter(into: entity.tableName, columns: entity.insertColumns) }
        let row = InsertedObjectRow(object: object, key: key, permanentIDs: permanentIDs)
        if logsSQL {
            var values: [DatabaseValue] = []
            row.forEachValue { values.append($0) }
            store.log("INSERT INTO \(name: entity.tableName) (\(names: entity.insertColumns)) VALUES \(store.dialect.placeholderRows(1, columns: values.count))", values)
        }
        try inserters[entity.number]!.insertRow(row)
    }

    @discardableResult
    func execute(_ sql: SQL, _ arguments: [DatabaseValue]) throws -> Int {
        if logsSQL { store.log(sql, arguments) }
        return try engine.execute(sql, arguments: arguments)
    }

    /// A statement the save runs once per object, made ready once (`EngineTransaction.prepare`),
    /// with its text for the log.
    struct LoggedStatement {
        let sql: SQL
        let statement: any PreparedStatement
    }

    func prepare(_ sql: SQL) throws -> LoggedStatement {
        LoggedStatement(sql: sql, statement: try engine.prepare(sql))
    }

    /// Runs `prepared` with `arguments`; the number of rows it changed.
    func execute(_ prepared: LoggedStatement, _ arguments: [DatabaseValue]) throws -> Int {
        if logsSQL { store.log(prepared.sql, arguments) }
        return try prepared.statement.execute(arguments)
    }

    func rows(_ sql: SQL, _ arguments: [DatabaseValue]) throws -> ReadRows {
        try store.logged(SQLFragment(sql: sql, arguments: arguments), { try engine.rows(sql, arguments: arguments) }, rows: \.count)
    }

    /// Calls `body` with the columns of each row `sql` selects, as each is read where the engine
    /// can: for many rows that need not all be in memory at once.
    func forEachRow(_ sql: SQL, _ arguments: [DatabaseValue], _ body: (RowColumns) -> Void) throws {
        if logsSQL { store.log(sql, arguments) }
        try engine.forEachRow(sql, arguments: arguments, body)
    }

    /// Runs `write`. When a unique index refuses one of its rows, the refusal, with nothing of
    /// `write` left written; otherwise `nil`. Other errors are thrown. `mayBeRefused` is false
    /// for writes no unique index of the model can refuse.
    func refusal(of write: () throws -> Void, mayBeRefused: Bool) throws -> (any Error)? {
        try engine.refusal(of: write, mayBeRefused: mayBeRefused)
    }

    /// Writes the save's transaction of the persistent history; its number.
    func writeHistory(_ history: HistoryRecorder, author: String?, contextName: String?) throws -> Int64 {
        try engine.writeHistory(history.record(author: author, contextName: contextName, store: store))
    }

    /// Calls `body` if the transaction rolls back, its commit included.
    func onRollback(_ body: @escaping @Sendable () -> Void) {
        engine.onRollback(body)
    }
}
