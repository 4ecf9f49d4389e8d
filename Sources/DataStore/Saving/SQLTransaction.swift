import GRDB

/// Statements run in turn in one open transaction: a save's, a batch request's, a migration's.
protocol SQLTransaction {
    /// Runs `sql`; the number of rows it changed.
    @discardableResult
    func execute(_ sql: SQL, _ arguments: [DatabaseValue]) throws -> Int

    /// Every row `sql` selects.
    func rows(_ sql: SQL, _ arguments: [DatabaseValue]) throws -> ReadRows
}

extension SQLTransaction {
    /// Runs `statement`; the number of rows it changed.
    @discardableResult
    func execute(_ statement: SQLFragment) throws -> Int {
        try execute(statement.sql, statement.arguments)
    }

    /// Every row `select` selects.
    func rows(_ select: SQLFragment) throws -> ReadRows {
        try rows(select.sql, select.arguments)
    }

    /// The first column of the first row `sql` selects, as an integer; `nil` when there is no row
    /// or the value is `NULL`.
    func integer(_ sql: SQL, _ arguments: [DatabaseValue] = []) throws -> Int64? {
        try rows(sql, arguments).firstInteger
    }
}
