import GRDB
import GRDBSQLite

extension Statement {
    /// Runs the statement with `values` bound through SQLite's C API: saving writes a row per
    /// changed object, and building GRDB's `StatementArguments` for each costs more than the
    /// SQLite work. Errors are GRDB's `DatabaseError`, with SQLite's extended result code.
    func execute(binding values: [DatabaseValue]) throws {
        let statement = sqliteStatement
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value.storage {
            case .null: sqlite3_bind_null(statement, index)
            case .int64(let number): sqlite3_bind_int64(statement, index, number)
            case .double(let number): sqlite3_bind_double(statement, index, number)
            case .string(let text): sqlite3_bind_text(statement, index, text, -1, Self.transient)
            case .blob(let bytes):
                bytes.withUnsafeBytes { buffer in
                    // A zero-length blob needs a non-null pointer, or SQLite stores NULL.
                    _ = sqlite3_bind_blob(statement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count), Self.transient)
                }
            }
        }
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else {
            let connection = sqlite3_db_handle(statement)
            throw DatabaseError(
                resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bytes before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
