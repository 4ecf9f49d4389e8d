import DataModel
import GRDB
import PostgresNIO
import StoreSchema

/// Copies every object of a store into a new store of either kind — SQLite to PostgreSQL and
/// back — keeping primary keys, relationships, ordering, `Z_PRIMARYKEY` and `Z_METADATA` (the
/// store's UUID, so object IDs stay the same): how an app's data moves to a server.
///
/// Persistent history goes with the objects. So do a SQLite store's tables outside the model's
/// layout (Core Data's CloudKit mirroring metadata): PostgreSQL holds each of their values tagged
/// with its SQLite storage class, and their SQLite definition as the table's comment, from which
/// a copy back creates them as they were.
///
/// The source is read in one snapshot; the destination is written in one transaction, so a copy
/// that stops leaves it as it was. A copy refuses, before writing anything, a source written by
/// another model version, a table of the layout whose columns differ from the model's, a table
/// of other origin that holds rows (it would be lost), and a destination that already holds a
/// store; it stops on the first value the destination cannot hold as it is
/// (`StoreCopyError.valueDoesNotFit`), naming its row.
public struct StoreCopier: Sendable {
    /// How far a copy is: rows copied of the store's total, and the table being copied.
    public struct Progress: Sendable {
        /// The table whose rows were copied last.
        public var table: String
        /// The rows copied so far, of every table.
        public var copiedRows: Int
        /// The rows of the whole store.
        public var totalRows: Int
    }

    /// The model version that wrote the source.
    public let model: Model

    public init(model: Model) {
        self.model = model
    }

    /// Copies `source` into `destination`, calling `progress` after each batch of rows, and
    /// returns the number of rows copied.
    @discardableResult
    public func copy(from source: StoreLocation, to destination: StoreLocation, progress: (Progress) -> Void = { _ in }) async throws -> Int {
        try await copy(from: source, into: { try await Self.writer(of: destination) }, progress: progress)
    }

    /// Copies `source` through the writer `makeWriter` gives once the source is planned: a
    /// mapping model's migration on a server passes one whose transaction began before it read
    /// the store, and which replaces the store's tables.
    @discardableResult
    func copy(
        from source: StoreLocation, into makeWriter: () async throws -> any StoreTableWriter, progress: (Progress) -> Void = { _ in }
    ) async throws -> Int {
        let reader = try await Self.reader(of: source)
        do {
            let plan = try await plan(reading: reader, source: source)
            var totals: [String: Int] = [:]
            for table in plan.tables { totals[table.name] = try await reader.rowCount(of: reader.storedName(table.name)) }
            let totalRows = totals.values.reduce(0, +)
            let writer = try await makeWriter()
            var copiedRows = 0
            do {
                try await writer.create(plan, model: model)
                for table in plan.tables where totals[table.name, default: 0] > 0 {
                    try await reader.forEachBatch(of: table) { rows in
                        try await writer.insert(rows, into: table)
                        copiedRows += rows.count
                        progress(Progress(table: table.name, copiedRows: copiedRows, totalRows: totalRows))
                    }
                }
                try await writer.commit(plan)
            } catch {
                await writer.rollBack()
                throw error
            }
            try await reader.close()
            return copiedRows
        } catch {
            try? await reader.close()
            throw error
        }
    }

    /// The source's layout, checked against the model's, and its other tables.
    private func plan(reading reader: any StoreTableReader, source: StoreLocation) async throws -> CopyPlan {
        let catalog = try await reader.catalog()
        guard catalog[reader.storedName("Z_METADATA")] != nil, let plist = try await reader.metadata() else {
            throw StoreCopyError.notAStore(source.description)
        }
        let metadata = try StoreMetadata(binaryPropertyList: plist)
        guard let hashes = metadata.versionHashes else { throw StoreCopyError.notAStore(source.description) }
        let framework = metadata.frameworkVersion.map(FrameworkVersion.init) ?? .current
        let schema = try StoreSchema(model: model, framework: framework).locatingJoinTables(among: catalog.keys.sorted()) { table, column in
            catalog[table]?.contains(reader.storedName(column)) ?? false
        }
        // Entities whose hashes differ (a model edited without a new version) are copied as the
        // store has them when Z_PRIMARYKEY numbers every entity as the model does, and the tables
        // and columns checked below are the model's: nothing of the store is then left behind.
        if !ModelVersionHashes(model: model).entitiesDiffering(from: hashes).isEmpty,
           try await entityNumbers(reading: reader) != Dictionary(uniqueKeysWithValues: schema.entities.map { ($0.number, $0.name) }) {
            throw StoreCopyError.modelMismatch(source.description)
        }
        let history = catalog[reader.storedName(HistorySchema.changeTable)].map { columns in
            (0...).first { !columns.contains(reader.storedName(HistorySchema.tombstoneColumn($0))) }!
        }
        var tables: [CopiedTable] = []
        for table in CopiedTable.tables(of: schema, model: model) + (history.map(CopiedTable.history(tombstoneColumns:)) ?? []) {
            guard let columns = catalog[reader.storedName(table.name)] else {
                // Core Data writes no model cache in some releases; every other table must be there.
                if table.name == "Z_MODELCACHE" { continue }
                throw StoreCopyError.layoutMismatch(table: table.name, missing: table.columns.map(\.name), unknown: [])
            }
            let expected = table.columns.map { reader.storedName($0.name) }
            let missing = expected.filter { !columns.contains($0) }
            let unknown = columns.subtracting(expected).sorted()
            guard missing.isEmpty && unknown.isEmpty else {
                throw StoreCopyError.layoutMismatch(table: table.name, missing: missing, unknown: unknown)
            }
            tables.append(table)
        }
        // Tables outside the layout that a SQLite store had (Core Data's CloudKit mirroring
        // metadata) go as they are; any other table with rows cannot be copied without loss.
        let copied = Set(tables.map { reader.storedName($0.name) })
        for table in catalog.keys.sorted() where !copied.contains(table) {
            if let definition = try await reader.sqliteDefinition(of: table) {
                tables.append(.outsideLayout(table, columns: catalog[table, default: []].sorted(), definition: definition))
                continue
            }
            let rows = try await reader.rowCount(of: table)
            if rows > 0 { throw StoreCopyError.unknownTable(table, rows: rows) }
        }
        return CopyPlan(schema: schema, historyTombstoneColumns: history, tables: tables)
    }

    /// The entity names `Z_PRIMARYKEY` numbers.
    private func entityNumbers(reading reader: any StoreTableReader) async throws -> [Int: String] {
        var numbers: [Int: String] = [:]
        try await reader.forEachBatch(of: CopiedTable.primaryKeys) { rows in
            for row in rows {
                if let number = Int.fromDatabaseValue(row[0]), let name = String.fromDatabaseValue(row[1]) { numbers[number] = name }
            }
        }
        return numbers
    }

    private static func reader(of location: StoreLocation) async throws -> any StoreTableReader {
        switch location {
        case .sqlite(let url): try SQLiteTableReader(url: url)
        case .postgreSQL(let configuration, _): try await PostgreSQLTableReader(configuration)
        }
    }

    private static func writer(of location: StoreLocation) async throws -> any StoreTableWriter {
        switch location {
        case .sqlite(let url): SQLiteTableWriter(url: url)
        case .postgreSQL(let configuration, let description): try await PostgreSQLTableWriter(configuration, description: description)
        }
    }
}
