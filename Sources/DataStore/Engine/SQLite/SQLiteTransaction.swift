import Foundation
import GRDB
import GRDBSQLite
import StoreSchema

/// Statements in a SQLite transaction, on GRDB's connection: those with arguments prepared once
/// and kept in GRDB's cache, as a save runs them once per object, and bound through SQLite's C
/// API.
final class SQLiteTransaction: EngineTransaction {
    let db: Database

    init(_ db: Database) {
        self.db = db
    }

    func execute(_ sql: SQL, arguments: [DatabaseValue]) throws -> Int {
        if arguments.isEmpty {
            try db.execute(sql: sql.sqliteText)
        } else {
            // Bound with their lengths, as inserts bind them: text may hold U+0000.
            try db.cachedStatement(sql: sql.sqliteText).execute(binding: arguments)
        }
        return db.changesCount
    }

    func rows(_ sql: SQL, arguments: [DatabaseValue]) throws -> ReadRows {
        try ReadRows(db.cachedStatement(sql: sql.sqliteText), arguments: arguments)
    }

    func forEachRow(_ sql: SQL, arguments: [DatabaseValue], _ body: (RowColumns) -> Void) throws {
        _ = try db.cachedStatement(sql: sql.sqliteText).forEachRow(arguments: arguments) { body(.statement($0)) }
    }

    func inserter(into table: String, columns: [String]) throws -> any RowInserter {
        let insert: SQL = "INSERT INTO \(name: table) (\(names: columns)) VALUES \(SQLiteDialect().placeholderRows(1, columns: columns.count))"
        return SQLiteRowInserter(try db.cachedStatement(sql: insert.sqliteText))
    }

    func prepare(_ sql: SQL) throws -> any PreparedStatement {
        SQLitePreparedStatement(try db.cachedStatement(sql: sql.sqliteText))
    }

    func refusal(of write: () throws -> Void, mayBeRefused: Bool) throws -> (any Error)? {
        do {
            try write()
            return nil
        } catch let error as DatabaseError
            where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
            // A failed statement leaves SQLite's transaction as it was before it.
            return error
        }
    }

    func onRollback(_ body: @escaping @Sendable () -> Void) {
        db.afterNextTransaction(onCommit: { _ in }, onRollback: { _ in body() })
    }

    /// Writes the transaction in Core Data's layout: its names as keys of `ATRANSACTIONSTRING`.
    func writeHistory(_ record: HistoryRecord) throws -> Int64 {
        let transaction = try allocateKeys(1, of: HistorySchema.transactionEntity, table: HistorySchema.transactionTable)
        let row = try inserter(
            into: HistorySchema.transactionTable, columns: ["Z_PK", "Z_ENT", "ZAUTHORTS", "ZBUNDLEIDTS", "ZCONTEXTNAMETS", "ZPROCESSIDTS", "ZTIMESTAMP"])
        try row.insertRow([
            transaction.databaseValue, HistorySchema.transactionEntity.databaseValue, try stringKey(record.author).databaseValue,
            try stringKey(HistoryRecord.bundleID).databaseValue, try stringKey(record.contextName).databaseValue,
            try stringKey(HistoryRecord.processID).databaseValue, Date().timeIntervalSinceReferenceDate.databaseValue,
        ])
        guard !record.changes.isEmpty else { return transaction }
        let firstKey = try allocateKeys(Int64(record.changes.count), of: HistorySchema.changeEntity, table: HistorySchema.changeTable)
        try record.insertChanges(
            firstKey: firstKey, transaction: transaction, through: try inserter(into: HistorySchema.changeTable, columns: record.changeColumns))
        return transaction
    }

    /// Takes `count` keys of a history table from `Z_PRIMARYKEY` (past any key already used, in
    /// case the row lags) and returns the first.
    private func allocateKeys(_ count: Int64, of entity: Int, table: String) throws -> Int64 {
        let last = try Int64.fetchOne(
            db, sql: "SELECT max(ifnull((SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?), 0), ifnull((SELECT max(Z_PK) FROM \(table)), 0))",
            arguments: [entity]) ?? 0
        try db.cachedStatement(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?").execute(arguments: [last + count, entity])
        return last + 1
    }

    /// The key of `name` in `ATRANSACTIONSTRING`, added when new; `nil` for no name.
    private func stringKey(_ name: String?) throws -> Int64? {
        guard let name else { return nil }
        if let key = try Int64.fetchOne(db.cachedStatement(sql: "SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?"), arguments: [name]) {
            return key
        }
        let key = try allocateKeys(1, of: HistorySchema.stringEntity, table: HistorySchema.stringTable)
        try db.cachedStatement(sql: "INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, ZNAME) VALUES (?, ?, ?)")
            .execute(arguments: [key, HistorySchema.stringEntity, name])
        return key
    }
}

/// Inserts each row with one prepared statement, its values bound in place through SQLite's C
/// API.
private final class SQLiteRowInserter: RowInserter {
    private let statement: Statement

    init(_ statement: Statement) {
        self.statement = statement
    }

    func insertRow(_ row: some InsertedRow) throws {
        var binder = ParameterBinder(statement)
        row.forEachValue { binder.bind($0) }
        try binder.execute()
    }
}

/// A statement prepared once, its arguments bound in place through SQLite's C API each time it runs.
private final class SQLitePreparedStatement: PreparedStatement {
    private let statement: Statement

    init(_ statement: Statement) {
        self.statement = statement
    }

    func execute(_ arguments: [DatabaseValue]) throws -> Int {
        try statement.execute(binding: arguments)
        return Int(sqlite3_changes(sqlite3_db_handle(statement.sqliteStatement)))
    }
}
