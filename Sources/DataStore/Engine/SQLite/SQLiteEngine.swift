import GRDB

/// A store's SQLite database — a file in WAL mode, with concurrent readers, or memory — through
/// GRDB: reads step prepared statements in place, and a write transaction holds the whole file.
final class SQLiteEngine: StoreEngine {
    let database: any DatabaseWriter
    let dialect: any SQLDialect = SQLiteDialect()
    /// The writer connection's `PRAGMA data_version` at the last check: SQLite changes it when
    /// another connection commits, never for the connection's own writes.
    private let externalVersion = Locked<Int?>(nil)

    /// The connections that run reads of one statement, when the file has a pool of readers.
    private let statementReaders: StatementReaders?

    init(_ database: any DatabaseWriter) {
        self.database = database
        statementReaders = (database as? DatabasePool).map(StatementReaders.init(of:))
    }

    deinit {
        // Before the writer, which then closes last and leaves no log beside the file.
        statementReaders?.close()
    }

    /// SQLite locks the whole file for a write transaction.
    var locksRows: Bool { false }

    func forEachRow(_ sql: SQL, arguments: [DatabaseValue], _ body: (RowColumns) -> Void) throws -> Int {
        let text = sql.sqliteText
        // One statement reads one snapshot by itself (SQLite holds its read transaction from the
        // first step to the reset), so it needs no transaction around it: `read`'s BEGIN and
        // COMMIT were half the cost of filling a fault.
        func read(_ db: Database) throws -> Int {
            try db.cachedStatement(sql: text).forEachRow(arguments: arguments) { body(.statement($0)) }
        }
        if let statementReaders { return try statementReaders.read(read) }
        return try database.unsafeRead(read)
    }

    func rows(_ sql: SQL, arguments: [DatabaseValue]) async throws -> ReadRows {
        let text = sql.sqliteText
        return try await database.read { db in try ReadRows(db.cachedStatement(sql: text), arguments: arguments) }
    }

    func read<T>(_ body: (any EngineTransaction) throws -> T) throws -> T {
        try database.read { db in try body(SQLiteTransaction(db)) }
    }

    func write<T>(_ body: (any EngineTransaction) throws -> T) throws -> T {
        try database.write { db in try body(SQLiteTransaction(db)) }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any EngineTransaction) throws -> T) async throws -> T {
        try await database.write { db in try body(SQLiteTransaction(db)) }
    }

    /// A value SQLite read is in its storage class already.
    func valueOfAnyStorageClass(_ stored: DatabaseValue) -> DatabaseValue {
        stored
    }

    /// SQLite tells no one when another process writes a file.
    var notifiesCommits: Bool { false }

    func observeCommits(toStore storeIdentifier: String, _ onCommit: @escaping @Sendable (Int64?) async -> Void) {}

    func checkingExternalCommits<T>(_ body: (_ changed: Bool, any EngineTransaction) throws -> T) throws -> T {
        // On the writer's queue, outside a transaction: `data_version` is the writer's view.
        try database.writeWithoutTransaction { db in
            let version = try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
            let changed = externalVersion.withLock { last in
                defer { last = version }
                return last != nil && last != version
            }
            return try body(changed, SQLiteTransaction(db))
        }
    }

    /// A migration's write transaction holds the whole file already.
    func withMigrationLock<T>(_ body: () async throws -> T) async throws -> T {
        try await body()
    }
}
