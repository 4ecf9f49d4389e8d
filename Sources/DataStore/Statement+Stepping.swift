import GRDB
import GRDBSQLite

extension Statement {
    /// Binds `arguments`, then steps through the rows with SQLite's C API, calling `body` with the
    /// statement on each row (a cursor's per-row bookkeeping would cost a tenth of a large fetch).
    /// Returns the number of rows.
    @discardableResult
    func forEachRow(arguments: [DatabaseValue], _ body: (SQLiteStatement) -> Void) throws -> Int {
        let handle = sqliteStatement
        guard arguments.count == Int(sqlite3_bind_parameter_count(handle)) else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "\(arguments.count) values for \(sqlite3_bind_parameter_count(handle)) parameters", sql: sql)
        }
        // Text is bound with its length: GRDB binds it as a C string, which a U+0000 would end.
        var binder = ParameterBinder(self)
        binder.bind(arguments)
        defer { sqlite3_reset(handle) }
        var count = 0
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return count }
            guard code == SQLITE_ROW else {
                let connection = sqlite3_db_handle(handle)
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                    message: String(cString: sqlite3_errmsg(connection)), sql: sql)
            }
            body(handle)
            count += 1
        }
    }
}
