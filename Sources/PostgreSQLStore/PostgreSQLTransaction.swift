import DataStore
import GRDB
import Logging
import PostgreSQLSchema
import PostgresNIO
import StoreSchema

/// A transaction on one connection, each statement waited for in turn: a save's steps depend on
/// what the previous ones found (a conflict, a refused row).
///
/// Inserted rows are held back and written many to a statement just before the next other
/// statement, as one round trip per row would bound a save of many objects by the network's
/// latency.
final class PostgreSQLTransaction: EngineTransaction {
    private let connection: PostgresConnection
    private let logger: Logger
    /// Savepoints made so far, which name the next.
    private var savepoints = 0
    /// What to call if the transaction rolls back.
    private(set) var rollbackHandlers: [@Sendable () -> Void] = []
    /// The type of each column of the store's tables, by table and column name.
    private let columnTypes: [String: [String: PostgreSQLValueType]]
    /// The inserters of the transaction's tables, in the order they were first asked for, whose
    /// rows are written before any other statement.
    private var inserters: [PostgreSQLRowInserter] = []
    /// Bound values per multi-row `INSERT`: PostgreSQL's limit.
    static let parametersPerStatement = 65_535

    init(_ connection: PostgresConnection, columnTypes: [String: [String: PostgreSQLValueType]], logger: Logger) {
        self.connection = connection
        self.columnTypes = columnTypes
        self.logger = logger
    }

    func execute(_ sql: SQL, arguments: [DatabaseValue]) throws -> Int {
        try writeHeldRows()
        return try run(PostgreSQLStatement.query(sql, arguments: arguments)).metadata.rows ?? 0
    }

    func rows(_ sql: SQL, arguments: [DatabaseValue]) throws -> ReadRows {
        try writeHeldRows()
        return try ReadRows(run(PostgreSQLStatement.query(sql, arguments: arguments)))
    }

    func forEachRow(_ sql: SQL, arguments: [DatabaseValue], _ body: (RowColumns) -> Void) throws {
        try rows(sql, arguments: arguments).forEach(body)
    }

    func inserter(into table: String, columns: [String]) throws -> any RowInserter {
        if let held = inserters.first(where: { $0.table == table && $0.columns == columns }) { return held }
        let inserter = PostgreSQLRowInserter(table: table, columns: columns)
        inserters.append(inserter)
        return inserter
    }

    /// Writes the rows the inserters hold.
    func writeHeldRows() throws {
        for inserter in inserters where !inserter.values.isEmpty {
            try insert(into: inserter.table, columns: inserter.columns, values: inserter.takeRows())
        }
    }

    /// Inserts rows of `columns` into `table`, in as few statements as PostgreSQL takes: `values`
    /// holds the first row's values, then the next row's…. Binds each value as its column's
    /// type, which is the fastest for the server to read, or else as text of no stated type, as
    /// other statements bind it.
    func insert(into table: String, columns: [String], values: [DatabaseValue]) throws {
        guard !columns.isEmpty else { return }
        let types = columns.map { columnTypes[table]?[$0] }
        let rowsPerStatement = max(1, Self.parametersPerStatement / columns.count)
        let prefix = "INSERT INTO \(PostgreSQLName.quoted(table)) (\(columns.map(PostgreSQLName.quoted).joined(separator: ", "))) VALUES "
        var start = values.startIndex
        while start < values.endIndex {
            let end = min(start + rowsPerStatement * columns.count, values.endIndex)
            var text = prefix
            text.reserveCapacity(prefix.utf8.count + (end - start) * 9)
            var bindings = PostgresBindings(capacity: end - start)
            for index in start..<end {
                let column = (index - start) % columns.count
                text += column == 0 ? (index == start ? "($" : "), ($") : ", $"
                text += String(index - start + 1)
                if let type = types[column], PostgreSQLValue.bind(values[index], as: type, to: &bindings) {
                    // Text for `numeric` keeps every digit, and needs the cast to become one.
                    if type == .numeric { text += "::numeric" }
                } else {
                    PostgreSQLStatement.bind(values[index], to: &bindings)
                }
            }
            try run(PostgresQuery(unsafeSQL: text + ")", binds: bindings))
            start = end
        }
    }

    /// Runs `write` after a savepoint, to which a unique index's refusal rolls back.
    func refusal(of write: () throws -> Void, mayBeRefused: Bool) throws -> (any Error)? {
        guard mayBeRefused else {
            try write()
            return nil
        }
        try writeHeldRows()
        savepoints += 1
        let savepoint = "refusable_\(savepoints)"
        try run(PostgresQuery(unsafeSQL: "SAVEPOINT \(savepoint)"))
        do {
            try write()
            try writeHeldRows()
        } catch let error as PostgreSQLServerError where error.isUniqueViolation {
            try run(PostgresQuery(unsafeSQL: "ROLLBACK TO SAVEPOINT \(savepoint)"))
            return error
        }
        try run(PostgresQuery(unsafeSQL: "RELEASE SAVEPOINT \(savepoint)"))
        return nil
    }

    func onRollback(_ body: @escaping @Sendable () -> Void) {
        rollbackHandlers.append(body)
    }

    /// Notifies the listeners of `channel` with `payload` when the transaction commits (the
    /// server delivers notifications on commit only).
    func notify(_ channel: String, payload: String) throws {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(channel)
        bindings.append(payload)
        try run(PostgresQuery(unsafeSQL: "SELECT pg_notify($1, $2)", binds: bindings))
    }

    /// Runs `query`, the calling thread waiting; errors say what the server said.
    @discardableResult
    func run(_ query: PostgresQuery) throws -> PostgresQueryResult {
        do {
            return try connection.queryWhileOpen(query, logger: logger).wait()
        } catch {
            throw PostgreSQLServerError(error)
        }
    }
}

/// The rows one table's inserts hold until the transaction writes them.
private final class PostgreSQLRowInserter: RowInserter {
    let table: String
    let columns: [String]
    /// The rows' values, row after row.
    private(set) var values: [DatabaseValue] = []

    init(table: String, columns: [String]) {
        self.table = table
        self.columns = columns
    }

    /// Holds the row with the others.
    func insertRow(_ row: some InsertedRow) {
        row.forEachValue { values.append($0) }
    }

    /// The rows held, which are the transaction's to write now.
    func takeRows() -> [DatabaseValue] {
        defer { values = [] }
        return values
    }
}
