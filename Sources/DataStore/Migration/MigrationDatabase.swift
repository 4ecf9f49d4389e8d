import GRDB

/// The database a migration reads and changes, in the transaction the migration runs in: a SQLite
/// connection, or a server's transaction.
///
/// Statements are written as SQLite reads them, with bare names; on a server, the names `quoting`
/// knows are quoted on their way.
struct MigrationDatabase: SQLTransaction {
    enum Connection {
        case sqlite(Database)
        case server(any ServerTransaction)
    }

    let connection: Connection
    /// On a server, the store's names the statements use.
    private(set) var quoting = PostgreSQLQuoting.bookkeeping

    static func sqlite(_ db: Database) -> MigrationDatabase {
        MigrationDatabase(connection: .sqlite(db))
    }

    static func server(_ transaction: any ServerTransaction) -> MigrationDatabase {
        MigrationDatabase(connection: .server(transaction))
    }

    var dialect: SQLDialect {
        switch connection {
        case .sqlite: .sqlite
        case .server: .postgreSQL
        }
    }

    /// This database, its statements using the names `names` too.
    func naming<S: Sequence<String>>(_ names: S) -> MigrationDatabase {
        var database = self
        database.quoting = quoting.adding(names)
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
            return try transaction.execute(quoting.quoted(sql), arguments: arguments)
        }
    }

    func rows(_ sql: String, _ arguments: [DatabaseValue]) throws -> ReadRows {
        switch connection {
        case .sqlite(let db): try ReadRows(db.makeStatement(sql: sql), arguments: arguments)
        case .server(let transaction): try transaction.rows(quoting.quoted(sql), arguments: arguments)
        }
    }
}
