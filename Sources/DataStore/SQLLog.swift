import Foundation
import GRDB

/// SQL logging like Core Data's `-com.apple.CoreData.SQLDebug`: set `DATASTORE_SQL_DEBUG=1` to print
/// each statement and its time to standard error, `2` to add bound values.
extension PersistentStore {
    static let sqlDebugLevel: Int = ProcessInfo.processInfo.environment["DATASTORE_SQL_DEBUG"].flatMap(Int.init) ?? 0

    func log(_ sql: @autoclosure () -> String, _ arguments: @autoclosure () -> [any DatabaseValueConvertible] = []) {
        guard Self.sqlDebugLevel > 0 else { return }
        var line = "DataStore: sql: \(sql())"
        if Self.sqlDebugLevel > 1 {
            let values = arguments().map { "\($0.databaseValue)" }
            if !values.isEmpty { line += "  -- bound: " + values.joined(separator: ", ") }
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Runs a fetch of `sql`, logging the statement first and then its time and row count.
    func logged<T>(_ sql: SQLFragment, _ fetch: () throws -> T, rows: (T) -> Int) rethrows -> T {
        guard Self.sqlDebugLevel > 0 else { return try fetch() }
        log(sql.sql, sql.arguments)
        let start = ContinuousClock.now
        let result = try fetch()
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        FileHandle.standardError.write(Data("DataStore: annotation: fetch time: \(String(format: "%.4f", seconds))s for \(rows(result)) rows\n".utf8))
        return result
    }
}
