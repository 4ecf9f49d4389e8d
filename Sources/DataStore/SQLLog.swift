import Foundation
import GRDB

/// SQL logging like Core Data's `-com.apple.CoreData.SQLDebug`: level 1 logs each statement and
/// each fetch's time and row count, level 2 adds bound values (``SQLLogEntry`` has the format).
/// Set `DATASTORE_SQL_DEBUG=1` (or 2) in the environment, or call `logSQL(level:to:)`.
final class SQLLog: Sendable {
    typealias Handler = @Sendable (SQLLogEntry) -> Void

    static let environmentLevel = ProcessInfo.processInfo.environment["DATASTORE_SQL_DEBUG"].flatMap(Int.init) ?? 0
    static let standardError: Handler = { entry in FileHandle.standardError.write(Data((entry.description + "\n").utf8)) }

    /// A struct rather than a tuple: a closure inside a generic tuple is re-wrapped on every
    /// access through `Locked`, and the wrappers pile up.
    struct Settings {
        var level: Int
        var handler: Handler
    }

    let settings = Locked(Settings(level: environmentLevel, handler: standardError))
}

extension PersistentStore {
    /// Logs this store's SQL at `level` (0 turns logging off) to `handler`, one line per call, in
    /// the format ``SQLLogEntry`` documents; standard error by default.
    ///
    ///     store.logSQL(level: 2) { print($0) }
    public func logSQL(level: Int, to handler: (@Sendable (String) -> Void)? = nil) {
        var lines = SQLLog.standardError
        if let handler { lines = { entry in handler(entry.description) } }
        sqlLog.settings.withLock { $0 = SQLLog.Settings(level: level, handler: lines) }
    }

    /// Logs this store's SQL at `level` as values, to a recorder that collects them (replacing
    /// any other log handler).
    public func recordSQL(level: Int = 1) -> SQLLogRecorder {
        let recorder = SQLLogRecorder()
        sqlLog.settings.withLock { $0 = SQLLog.Settings(level: level, handler: recorder.append) }
        return recorder
    }

    /// Logs a warning, whatever the level: to the log's handler (standard error by default).
    func warn(_ message: String) {
        sqlLog.settings.withLock { $0 }.handler(.warning(message))
    }

    /// Whether statements are logged: checked once by loops that run a statement per object.
    var logsSQL: Bool { sqlLog.settings.withLock { $0.level > 0 } }

    func log(_ sql: @autoclosure () -> SQL, _ arguments: @autoclosure () -> [any DatabaseValueConvertible] = []) {
        let settings = sqlLog.settings.withLock { $0 }
        guard settings.level > 0 else { return }
        settings.handler(.statement(dialect.rendered(sql()), boundValues: settings.level > 1 ? arguments().map { "\($0.databaseValue)" } : []))
    }

    /// Runs a fetch of `sql`, logging the statement first and then its time and row count.
    func logged<T>(_ sql: SQLFragment, _ fetch: () throws -> T, rows: (T) -> Int) rethrows -> T {
        let settings = sqlLog.settings.withLock { $0 }
        guard settings.level > 0 else { return try fetch() }
        log(sql.sql, sql.arguments)
        let start = ContinuousClock.now
        let result = try fetch()
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        settings.handler(.fetched(seconds: seconds, rows: rows(result)))
        return result
    }
}
