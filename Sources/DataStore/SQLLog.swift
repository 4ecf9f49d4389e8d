import Foundation
import GRDB

/// SQL logging like Core Data's `-com.apple.CoreData.SQLDebug`: set `DATASTORE_SQL_DEBUG=1` to print
/// each statement to standard error, `2` to add bound values.
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
}
