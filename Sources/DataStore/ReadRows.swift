import Foundation
import GRDB
import GRDBSQLite

/// Rows read into memory, every column in its storage class: what a read off the context's
/// isolation hands back to it, to be turned into objects there.
package struct ReadRows: Sendable {
    let columnCount: Int
    /// The values of every row, row after row.
    private let values: [DatabaseValue]

    package var count: Int { columnCount == 0 ? 0 : values.count / columnCount }

    /// Rows of `columnCount` columns: `values` holds the first row's, then the next row's….
    package init(columnCount: Int, values: [DatabaseValue]) {
        self.columnCount = columnCount
        self.values = values
    }

    /// Reads every row `statement` gives for `arguments`.
    init(_ statement: Statement, arguments: [DatabaseValue]) throws {
        let columns = Int32(statement.columnCount)
        var values: [DatabaseValue] = []
        try statement.forEachRow(arguments: arguments) { row in
            for column in 0..<columns { values.append(DatabaseValue(sqliteStatement: row, index: column)) }
        }
        columnCount = Int(columns)
        self.values = values
    }

    /// The first column of the first row as an integer; `nil` without a row, or for `NULL`.
    package var firstInteger: Int64? {
        guard columnCount > 0, !values.isEmpty else { return nil }
        switch values[0].storage {
        case .int64(let integer): return integer
        case .double(let real): return Int64(exactly: real)
        case .null, .string, .blob: return nil
        }
    }

    /// Calls `body` with the columns of each row in turn.
    package func forEach(_ body: (RowColumns) throws -> Void) rethrows {
        guard columnCount > 0 else { return }
        try values.withUnsafeBufferPointer { all in
            for start in stride(from: 0, to: all.count, by: columnCount) {
                try body(.values(UnsafeBufferPointer(rebasing: all[start..<start + columnCount])))
            }
        }
    }
}

extension PersistentStore {
    /// Every row `sql` selects, read into memory on one of the store's connections while the
    /// caller's isolation is free to run other work; logged as `logged(_:_:rows:)` logs.
    func readRows(_ sql: SQLFragment) async throws(ContextError) -> ReadRows {
        let settings = sqlLog.settings.withLock { $0 }
        if settings.level > 0 { log(sql.sql, sql.arguments) }
        let start = ContinuousClock.now
        let rows: ReadRows
        do {
            rows = try await engine.rows(sql.sql, arguments: sql.arguments)
        } catch {
            throw .database(message: "\(error)")
        }
        if settings.level > 0 { settings.handler(.fetched(seconds: (ContinuousClock.now - start) / .seconds(1), rows: rows.count)) }
        return rows
    }
}
