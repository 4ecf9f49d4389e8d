import DataStore
import GRDB
import Logging
import PostgreSQLSchema
import PostgresNIO
import StoreSchema

/// A save's transaction on one connection, each statement waited for in turn: a save's steps
/// depend on what the previous ones found (a conflict, a refused row).
final class PostgreSQLTransaction: ServerTransaction {
    private let connection: PostgresConnection
    private let queryText: PostgreSQLQueryText
    private let logger: Logger
    /// Savepoints made so far, which name the next.
    private var savepoints = 0
    /// What to call if the transaction rolls back.
    private(set) var rollbackHandlers: [@Sendable () -> Void] = []
    /// The type of each column of the store's tables, by table and column name.
    private let columnTypes: [String: [String: PostgreSQLValueType]]
    /// Bound values per multi-row `INSERT`: PostgreSQL's limit.
    private static let parametersPerStatement = 65_535

    init(_ connection: PostgresConnection, queryText: PostgreSQLQueryText, columnTypes: [String: [String: PostgreSQLValueType]], logger: Logger) {
        self.connection = connection
        self.queryText = queryText
        self.columnTypes = columnTypes
        self.logger = logger
    }

    func execute(_ sql: String, arguments: [DatabaseValue]) throws -> Int {
        try run(queryText.query(sql, arguments: arguments)).metadata.rows ?? 0
    }

    func rows(_ sql: String, arguments: [DatabaseValue]) throws -> ReadRows {
        try ReadRows(run(queryText.query(sql, arguments: arguments)))
    }

    /// Binds each value as its column's type, which is the fastest for the server to read, or
    /// else as text of no stated type, as other statements bind it.
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
                    PostgreSQLQueryText.bind(values[index], to: &bindings)
                }
            }
            try run(PostgresQuery(unsafeSQL: text + ")", binds: bindings))
            start = end
        }
    }

    func refusal(of write: () throws -> Void) throws -> (any Error)? {
        savepoints += 1
        let savepoint = "refusable_\(savepoints)"
        try run(PostgresQuery(unsafeSQL: "SAVEPOINT \(savepoint)"))
        do {
            try write()
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
            return try connection.query(query, logger: logger).wait()
        } catch {
            throw PostgreSQLServerError(error)
        }
    }
}
