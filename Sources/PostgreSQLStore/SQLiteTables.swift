import DataModel
import Foundation
import GRDB
import StoreSchema

/// A SQLite store file read for a copy, in one read transaction.
final class SQLiteTableReader: StoreTableReader {
    private let queue: DatabaseQueue
    /// Rows per batch: large enough to make each query's cost small, small enough to stream.
    private static let batchSize = 1_000

    init(url: URL) throws {
        var configuration = Configuration()
        configuration.readonly = true
        // The snapshot's transaction spans the batches, each read in an access of its own.
        configuration.allowsUnsafeTransactions = true
        queue = try DatabaseQueue(path: url.path, configuration: configuration)
        try queue.inDatabase { db in try db.beginTransaction(.deferred) }
    }

    func catalog() async throws -> [String: Set<String>] {
        try queue.inDatabase { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            return try Dictionary(uniqueKeysWithValues: tables.map { ($0, Set(try db.columns(in: $0).map(\.name))) })
        }
    }

    func storedName(_ name: String) -> String { name }

    func metadata() async throws -> [UInt8]? {
        try queue.inDatabase { db in try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1").map(Array.init) }
    }

    func rowCount(of table: String) async throws -> Int {
        try queue.inDatabase { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0 }
    }

    func sqliteDefinition(of table: String) async throws -> [String]? {
        try queue.inDatabase { db in
            try String.fetchAll(
                db, sql: "SELECT sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL ORDER BY type <> 'table', rowid", arguments: [table])
        }
    }

    func forEachBatch(of table: CopiedTable, _ body: ([[DatabaseValue]]) async throws -> Void) async throws {
        // Pages by rowid, so that each batch is one short query in the same read transaction.
        let columns = table.columns.map(\.name.quotedDatabaseIdentifier).joined(separator: ", ")
        let sql = "SELECT rowid, \(columns) FROM \(table.name.quotedDatabaseIdentifier) WHERE rowid > ? ORDER BY rowid LIMIT \(Self.batchSize)"
        var lastRowID = Int64.min
        while true {
            let rows = try queue.inDatabase { db in try Row.fetchAll(db, sql: sql, arguments: [lastRowID]) }
            guard let last = rows.last else { return }
            lastRowID = last[0]
            try await body(rows.map { row in (1..<row.count).map { row[$0] as DatabaseValue } })
        }
    }

    func close() async throws {
        try queue.inDatabase { db in try db.rollback() }
        try queue.close()
    }
}

/// A new SQLite store file written for a copy: rows go into a file beside the destination, which
/// takes the destination's name only once the whole copy is written.
final class SQLiteTableWriter: StoreTableWriter {
    private let destination: URL
    private let temporary: URL
    private var queue: DatabaseQueue?

    init(url: URL) {
        destination = url
        temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).copy-\(UUID().uuidString)")
    }

    func create(_ plan: CopyPlan, model: Model) async throws {
        let schema = plan.schema
        guard !FileManager.default.fileExists(atPath: destination.path) else { throw StoreCopyError.destinationNotEmpty(destination.path) }
        var configuration = Configuration()
        // The copy's transaction spans the batches, each written in an access of its own.
        configuration.allowsUnsafeTransactions = true
        let queue = try DatabaseQueue(path: temporary.path, configuration: configuration)
        self.queue = queue
        try queue.inDatabase { db in
            try db.beginTransaction(.immediate)
            let statements = schema.tables.map(schema.createStatement(for:)) + schema.joinTables.map(schema.createStatement(for:))
                + schema.indexes.map(schema.createStatement(for:)) + StoreSchema.bookkeepingTables
                + (plan.historyTombstoneColumns.map(HistorySchema.createStatements(tombstoneColumns:)) ?? [])
                + plan.tablesOutsideLayout.flatMap { $0.sqliteDefinition ?? [] }
            for statement in statements { try db.execute(sql: statement) }
        }
    }

    func insert(_ rows: [[DatabaseValue]], into table: CopiedTable) async throws {
        guard let queue else { return }
        let columns = table.columns.map(\.name.quotedDatabaseIdentifier).joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
        try queue.inDatabase { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO \(table.name.quotedDatabaseIdentifier) (\(columns)) VALUES (\(placeholders))")
            for row in rows { try statement.execute(arguments: StatementArguments(row)) }
        }
    }

    func commit(_ plan: CopyPlan) async throws {
        guard let queue else { return }
        try queue.inDatabase { db in
            for trigger in plan.schema.derivedAttributes.flatMap(\.triggers) { try db.execute(sql: trigger.sql) }
            try db.commit()
        }
        try queue.close()
        self.queue = nil
        // The destination was checked absent; a link fails rather than replace a file made since.
        try FileManager.default.linkItem(at: temporary, to: destination)
        try FileManager.default.removeItem(at: temporary)
    }

    func rollBack() async {
        try? queue?.inDatabase { db in if db.isInsideTransaction { try db.rollback() } }
        try? queue?.close()
        queue = nil
        try? FileManager.default.removeItem(at: temporary)
    }
}
