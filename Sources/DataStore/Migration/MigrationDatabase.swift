import GRDB

/// The database a migration reads and changes, in the transaction the migration runs in: a SQLite
/// connection, or a server's transaction.
///
/// Statements are written with bare names; on a server, the dialect makes them ready on their way
/// (`StatementNames`).
struct MigrationDatabase: SQLTransaction {
    enum Connection {
        case sqlite(Database)
        case server(any ServerTransaction)
    }

    let connection: Connection
    /// The SQL the engine speaks.
    let dialect: any SQLDialect
    /// The store's names the statements use.
    private(set) var names: StatementNames

    static func sqlite(_ db: Database) -> MigrationDatabase {
        let dialect = SQLiteDialect()
        return MigrationDatabase(connection: .sqlite(db), dialect: dialect, names: dialect.statementNames([]))
    }

    static func server(_ transaction: any ServerTransaction, dialect: any SQLDialect) -> MigrationDatabase {
        MigrationDatabase(connection: .server(transaction), dialect: dialect, names: dialect.statementNames([]))
    }

    /// This database, its statements using the names `names` too.
    func naming<S: Sequence<String>>(_ names: S) -> MigrationDatabase {
        var database = self
        database.names = dialect.statementNames(self.names.names.union(names))
        return database
    }

    @discardableResult
    func execute(_ sql: String, _ arguments: [DatabaseValue]) throws -> Int {
        switch connection {
        case .sqlite(let db):
            // Statements with arguments run once per row of the history: prepared once.
            if arguments.isEmpty {
                try db.execute(sql: sql)
            } else {
                try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(arguments))
            }
            return db.changesCount
        case .server(let transaction):
            return try transaction.execute(names.finished(sql), arguments: arguments)
        }
    }

    func rows(_ sql: String, _ arguments: [DatabaseValue]) throws -> ReadRows {
        switch connection {
        case .sqlite(let db): try ReadRows(db.makeStatement(sql: sql), arguments: arguments)
        case .server(let transaction): try transaction.rows(names.finished(sql), arguments: arguments)
        }
    }
}
