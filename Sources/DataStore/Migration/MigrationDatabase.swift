import GRDB

/// The database a migration reads and changes, in the engine's transaction the migration runs in.
struct MigrationDatabase: SQLTransaction {
    let transaction: any EngineTransaction
    /// The SQL the engine speaks.
    let dialect: any SQLDialect

    init(_ transaction: any EngineTransaction, dialect: any SQLDialect) {
        self.transaction = transaction
        self.dialect = dialect
    }

    /// A SQLite connection's.
    static func sqlite(_ db: Database) -> MigrationDatabase {
        MigrationDatabase(SQLiteTransaction(db), dialect: SQLiteDialect())
    }

    @discardableResult
    func execute(_ sql: SQL, _ arguments: [DatabaseValue]) throws -> Int {
        try transaction.execute(sql, arguments: arguments)
    }

    func rows(_ sql: SQL, _ arguments: [DatabaseValue]) throws -> ReadRows {
        try transaction.rows(sql, arguments: arguments)
    }
}
