import DataModel
import Foundation
import GRDB
import Logging
import PostgreSQLSchema
import PostgresNIO
import StoreSchema

/// A connection for a copy, in one transaction from `open` to the end.
private func connect(_ configuration: PostgresConnection.Configuration, beginning transaction: String) async throws -> PostgresConnection {
    let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "datamodelkit.copy"))
    do {
        try await connection.query(PostgresQuery(unsafeSQL: transaction), logger: connection.logger)
    } catch {
        try? await connection.close()
        throw error
    }
    return connection
}

/// A PostgreSQL store read for a copy, in one repeatable-read transaction (one snapshot).
final class PostgreSQLTableReader: StoreTableReader {
    private let connection: PostgresConnection
    /// Rows per batch handed on.
    private static let batchSize = 1_000

    init(_ configuration: PostgresConnection.Configuration) async throws {
        connection = try await connect(configuration, beginning: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
    }

    func catalog() async throws -> [String: Set<String>] {
        let rows = try await connection.query(
            "SELECT table_name::text, column_name::text FROM information_schema.columns WHERE table_schema = current_schema()",
            logger: connection.logger)
        var catalog: [String: Set<String>] = [:]
        for try await (table, column) in rows.decode((String, String).self) { catalog[table, default: []].insert(column) }
        return catalog
    }

    func storedName(_ name: String) -> String { PostgreSQLName.of(name) }

    func metadata() async throws -> [UInt8]? {
        let rows = try await connection.query(#"SELECT "Z_PLIST" FROM "Z_METADATA" WHERE "Z_VERSION" = 1"#, logger: connection.logger)
        for try await var plist in rows.decode(ByteBuffer.self) { return plist.readBytes(length: plist.readableBytes) }
        return nil
    }

    /// `Z_METADATA.Z_UUID`: the store's identifier, which object URIs carry.
    func identifier() async throws -> String? {
        let rows = try await connection.query(#"SELECT "Z_UUID" FROM "Z_METADATA" WHERE "Z_VERSION" = 1"#, logger: connection.logger)
        for try await identifier in rows.decode(String?.self) { return identifier }
        return nil
    }

    /// The largest `Z_PK` of `table`; 0 for an empty table.
    func largestKey(of table: String) async throws -> Int64 {
        let rows = try await connection.query(PostgresQuery(unsafeSQL: "SELECT COALESCE(max(\"Z_PK\"), 0) FROM \(PostgreSQLName.quoted(table))"), logger: connection.logger)
        for try await key in rows.decode(Int64.self) { return key }
        return 0
    }

    /// The number of the history's last committed transaction: numbers are taken from
    /// `Z_PRIMARYKEY` in commit order, so its `Z_MAX` says, even when the transactions were deleted.
    func lastHistoryTransaction() async throws -> Int64 {
        let entry = "SELECT \"Z_MAX\" FROM \"Z_PRIMARYKEY\" WHERE \"Z_ENT\" = \(HistorySchema.transactionEntity)"
        let largest = "SELECT max(\"Z_PK\") FROM \(PostgreSQLName.quoted(HistorySchema.transactionTable))"
        let rows = try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT GREATEST(COALESCE((\(entry)), 0), COALESCE((\(largest)), 0))"), logger: connection.logger)
        for try await key in rows.decode(Int64.self) { return key }
        return 0
    }

    func rowCount(of table: String) async throws -> Int {
        let rows = try await connection.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(PostgreSQLName.quoted(table))"), logger: connection.logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    func sqliteDefinition(of table: String) async throws -> [String]? {
        let rows = try await connection.query(
            "SELECT obj_description(to_regclass(quote_ident(current_schema()) || '.' || quote_ident(\(table))), 'pg_class')",
            logger: connection.logger)
        for try await comment in rows.decode(String?.self) { return comment.flatMap(SQLiteDefinitionComment.statements(in:)) }
        return nil
    }

    func forEachBatch(of table: CopiedTable, _ body: ([[DatabaseValue]]) async throws -> Void) async throws {
        let columns = table.columns.map { PostgreSQLName.quoted($0.name) }.joined(separator: ", ")
        let rows = try await connection.query(PostgresQuery(unsafeSQL: "SELECT \(columns) FROM \(PostgreSQLName.quoted(table.name))"), logger: connection.logger)
        var batch: [[DatabaseValue]] = []
        batch.reserveCapacity(Self.batchSize)
        for try await row in rows {
            batch.append(try zip(row, table.columns).map { cell, column in try PostgreSQLValue.value(cell, of: column.type) })
            if batch.count == Self.batchSize {
                try await body(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try await body(batch) }
    }

    func close() async throws {
        try await connection.query("ROLLBACK", logger: connection.logger)
        try await connection.close()
    }
}

/// A PostgreSQL database a copy creates a store in, in one transaction: PostgreSQL's DDL is
/// transactional, so a failed copy leaves not even the tables.
final class PostgreSQLTableWriter: StoreTableWriter {
    private let connection: PostgresConnection
    private let description: String
    /// The tables of the store the copy replaces, in the same transaction (empty for a copy into
    /// a database without a store).
    private let replacedTables: [String]
    /// Bound values per `INSERT`, under PostgreSQL's limit of 65,535.
    private static let parametersPerStatement = 30_000

    init(_ configuration: PostgresConnection.Configuration, description: String, replacing replacedTables: [String] = []) async throws {
        connection = try await connect(configuration, beginning: "BEGIN")
        self.description = description
        self.replacedTables = replacedTables
    }

    func create(_ plan: CopyPlan, model: Model) async throws {
        if !replacedTables.isEmpty { try await dropReplacedStore() }
        let existing = try await connection.query(
            #"SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name IN ('Z_METADATA', 'Z_PRIMARYKEY')"#,
            logger: connection.logger)
        for try await count in existing.decode(Int.self) where count > 0 { throw StoreCopyError.destinationNotEmpty(description) }
        let history = plan.historyTombstoneColumns.map(HistorySchema.postgreSQLCreateStatements(tombstoneColumns:)) ?? []
        for statement in plan.schema.postgreSQLCreateStatements(model: model) + history {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: connection.logger)
        }
        for table in plan.tablesOutsideLayout {
            let name = PostgreSQLName.quoted(table.name)
            let columns = table.columns.map { "\(PostgreSQLName.quoted($0.name)) bytea" }.joined(separator: ", ")
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE TABLE \(name) (\(columns))"), logger: connection.logger)
            let comment = SQLiteDefinitionComment.comment(for: table.sqliteDefinition ?? [])
            try await connection.query(PostgresQuery(unsafeSQL: "COMMENT ON TABLE \(name) IS \(SQLSyntax.stringLiteral(comment))"), logger: connection.logger)
        }
    }

    /// The tables of a store being replaced, with `Z_PRIMARYKEY`, `Z_METADATA`, `Z_MODELCACHE`
    /// and the persistent history's.
    static func storeTables(layout: [String]) -> [String] {
        layout + ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE", HistorySchema.changeTable, HistorySchema.transactionTable, HistorySchema.stringTable]
    }

    /// Locks the tables of the store being replaced against writes (reads go on) until the copy
    /// commits, then checks that `Z_METADATA` still names `version`: a process that wrote or
    /// migrated the store meanwhile would otherwise lose its work to the copy.
    func lockReplacedStore(writtenBy version: Model) async throws {
        let existing = try await connection.query(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()", logger: connection.logger)
        var present: Set<String> = []
        for try await name in existing.decode(String.self) { present.insert(name) }
        let tables = Self.storeTables(layout: replacedTables).filter(present.contains)
        guard !tables.isEmpty else { return }
        let list = tables.map(PostgreSQLName.quoted).joined(separator: ", ")
        try await connection.query(PostgresQuery(unsafeSQL: "LOCK TABLE \(list) IN EXCLUSIVE MODE"), logger: connection.logger)
        let rows = try await connection.query(#"SELECT "Z_PLIST" FROM "Z_METADATA" ORDER BY "Z_VERSION" LIMIT 1"#, logger: connection.logger)
        var plist: [UInt8]?
        for try await var bytes in rows.decode(ByteBuffer.self) { plist = bytes.readBytes(length: bytes.readableBytes) }
        guard let plist, let hashes = (try? StoreMetadata(binaryPropertyList: plist))?.versionHashes,
              ModelVersionHashes(model: version).entitiesDiffering(from: hashes).isEmpty
        else { throw StoreCopyError.destinationNotEmpty("\(description) (its store is no longer at the version being migrated)") }
    }

    /// Drops the tables of the store being replaced, in the copy's transaction, so that the copy
    /// takes the store's place at its commit, or nothing changes. A view or key of the user's that
    /// depends on one of them stops the copy (the tables are not dropped in cascade); other tables
    /// stay.
    private func dropReplacedStore() async throws {
        for table in Self.storeTables(layout: replacedTables) {
            try await connection.query(PostgresQuery(unsafeSQL: "DROP TABLE IF EXISTS \(PostgreSQLName.quoted(table))"), logger: connection.logger)
        }
    }

    func insert(_ rows: [[DatabaseValue]], into table: CopiedTable) async throws {
        let rowsPerStatement = max(1, Self.parametersPerStatement / max(1, table.columns.count))
        let prefix = "INSERT INTO \(PostgreSQLName.quoted(table.name)) (\(table.columns.map { PostgreSQLName.quoted($0.name) }.joined(separator: ", "))) VALUES "
        let primaryKey = table.columns.firstIndex { $0.name == "Z_PK" }
        var start = rows.startIndex
        while start < rows.endIndex {
            let chunk = rows[start..<min(start + rowsPerStatement, rows.endIndex)]
            var bindings = PostgresBindings(capacity: chunk.count * table.columns.count)
            var tuples: [String] = []
            tuples.reserveCapacity(chunk.count)
            for row in chunk {
                var placeholders: [String] = []
                for (value, column) in zip(row, table.columns) {
                    guard PostgreSQLValue.bind(value, as: column.type, to: &bindings) else {
                        throw StoreCopyError.valueDoesNotFit(
                            table: table.name, column: column.name, row: primaryKey.flatMap { Int64.fromDatabaseValue(row[$0]) },
                            value: value.description, type: column.type.rawValue)
                    }
                    placeholders.append("$\(bindings.count)" + (column.type == .numeric ? "::numeric" : ""))
                }
                tuples.append("(" + placeholders.joined(separator: ", ") + ")")
            }
            try await connection.query(PostgresQuery(unsafeSQL: prefix + tuples.joined(separator: ", "), binds: bindings), logger: connection.logger)
            start = chunk.endIndex
        }
    }

    func commit(_ plan: CopyPlan) async throws {
        try await connection.query("COMMIT", logger: connection.logger)
        try await connection.close()
    }

    func rollBack() async {
        _ = try? await connection.query("ROLLBACK", logger: connection.logger)
        try? await connection.close()
    }
}
