import GRDB
import GRDBSQLite

/// Binds values to a prepared statement's parameters in order through SQLite's C API, then runs
/// it: saving writes a row per changed object, and building GRDB's `StatementArguments` — or any
/// array of the values — for each row costs more than the SQLite work.
struct ParameterBinder {
    private let statement: Statement
    private let handle: SQLiteStatement
    private var index: Int32 = 0

    /// Starts binding `statement`'s parameters from the first.
    init(_ statement: Statement) {
        self.statement = statement
        handle = statement.sqliteStatement
        sqlite3_reset(handle)
    }

    /// Binds `value` to the next parameter.
    mutating func bind(_ value: DatabaseValue) {
        index += 1
        let (handle, index) = (handle, index)
        switch value.storage {
        case .null: sqlite3_bind_null(handle, index)
        case .int64(let number): sqlite3_bind_int64(handle, index, number)
        case .double(let number): sqlite3_bind_double(handle, index, number)
        case .string(var text):
            // The UTF-8 bytes in place, with their length: no C-string copy, no `strlen`.
            text.withUTF8 { bytes in
                let start = UnsafeRawPointer(bytes.baseAddress) ?? Self.nonNull
                _ = sqlite3_bind_text(handle, index, start.assumingMemoryBound(to: CChar.self), Int32(bytes.count), Self.transient)
            }
        case .blob(let bytes):
            bytes.withUnsafeBytes { buffer in
                // A zero-length blob needs a non-null pointer, or SQLite stores NULL.
                _ = sqlite3_bind_blob(handle, index, buffer.baseAddress ?? Self.nonNull, Int32(buffer.count), Self.transient)
            }
        }
    }

    /// Binds each of `values` in turn.
    mutating func bind(_ values: some Sequence<DatabaseValue>) {
        for value in values { bind(value) }
    }

    /// Runs the statement once with the bound values (every parameter must be bound). Errors are
    /// GRDB's `DatabaseError`, with SQLite's extended result code.
    func execute() throws {
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else {
            let connection = sqlite3_db_handle(handle)
            throw DatabaseError(
                resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                message: String(cString: sqlite3_errmsg(connection)), sql: statement.sql)
        }
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bytes before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    /// Where an empty text or blob points: SQLite reads no byte of it.
    private static var nonNull: UnsafeRawPointer { UnsafeRawPointer(bitPattern: 1).unsafelyUnwrapped }
}

extension Statement {
    /// Runs the statement with `values` bound to its parameters, through SQLite's C API.
    func execute(binding values: [DatabaseValue]) throws {
        var binder = ParameterBinder(self)
        binder.bind(values)
        try binder.execute()
    }
}
