import GRDB

/// The database a migration reads and changes, in the engine's transaction the migration runs in.
///
/// Statements are written with bare names; the dialect makes them ready for its engine on their
/// way (`StatementNames`).
struct MigrationDatabase: SQLTransaction {
    let transaction: any EngineTransaction
    /// The SQL the engine speaks.
    let dialect: any SQLDialect
    /// The store's names the statements use.
    private(set) var names: StatementNames

    init(_ transaction: any EngineTransaction, dialect: any SQLDialect) {
        self.transaction = transaction
        self.dialect = dialect
        names = dialect.statementNames([])
    }

    /// A SQLite connection's.
    static func sqlite(_ db: Database) -> MigrationDatabase {
        MigrationDatabase(SQLiteTransaction(db), dialect: SQLiteDialect())
    }

    /// This database, its statements using the names `names` too.
    func naming<S: Sequence<String>>(_ names: S) -> MigrationDatabase {
        var database = self
        database.names = dialect.statementNames(self.names.names.union(names))
        return database
    }

    @discardableResult
    func execute(_ sql: String, _ arguments: [DatabaseValue]) throws -> Int {
        try transaction.execute(names.finished(sql), arguments: arguments)
    }

    func rows(_ sql: String, _ arguments: [DatabaseValue]) throws -> ReadRows {
        try transaction.rows(names.finished(sql), arguments: arguments)
    }
}
