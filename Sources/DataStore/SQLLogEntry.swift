import Foundation

/// One entry of a store's SQL log, as a value: what `logSQL(level:to:)` prints as one line.
///
/// The printed lines are an interface — grep them as you grep Core Data's `CoreData: sql:` — in
/// three forms:
///
///     DataStore: sql: SELECT t0.Z_PK, t0.ZTITLE FROM ZBOOK t0 WHERE t0.ZPRICE < ?  -- bound: 10.0
///     DataStore: annotation: fetch time: 0.0012s for 42 rows
///     DataStore: warning: the section cache 'books' was made for another fetch request; …
///
/// `-- bound:` and the values, as SQL literals, appear at level 2 only, and only for statements
/// with parameters. A fetch's annotation follows its statement.
public enum SQLLogEntry: Sendable, Hashable, CustomStringConvertible {
    /// A statement about to run, with its bound values as SQL literals (empty below level 2).
    case statement(String, boundValues: [String])
    /// The time and row count of the fetch whose statement came just before.
    case fetched(seconds: Double, rows: Int)
    /// Something the store did that its user should know of, logged whatever the level.
    case warning(String)

    /// The statement's SQL; `nil` for other entries.
    public var sql: String? {
        if case .statement(let sql, _) = self { sql } else { nil }
    }

    /// The entry as a printed line.
    public var description: String {
        switch self {
        case .statement(let sql, let values):
            "DataStore: sql: \(sql)" + (values.isEmpty ? "" : "  -- bound: " + values.joined(separator: ", "))
        case .fetched(let seconds, let rows):
            "DataStore: annotation: fetch time: \(String(format: "%.4f", seconds))s for \(rows) rows"
        case .warning(let message):
            "DataStore: warning: \(message)"
        }
    }
}

/// Collects a store's SQL log as values, for tests and diagnostics:
///
///     let log = store.recordSQL()
///     _ = try context.fetch(request)
///     #expect(log.statements.count == 1)
public final class SQLLogRecorder: Sendable {
    private let recorded = Locked<[SQLLogEntry]>([])

    public init() {}

    /// Every entry so far, oldest first.
    public var entries: [SQLLogEntry] { recorded.withLock { $0 } }

    /// The SQL of every statement so far.
    public var statements: [String] { entries.compactMap(\.sql) }

    /// Forgets the entries so far.
    public func removeAll() {
        recorded.withLock { $0.removeAll() }
    }

    func append(_ entry: SQLLogEntry) {
        recorded.withLock { $0.append(entry) }
    }
}
