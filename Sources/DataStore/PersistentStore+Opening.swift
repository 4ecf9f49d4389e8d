import Foundation
import GRDB
import StoreSchema

extension PersistentStore {
    /// What opening found: the store's identity and the model mapped onto its tables.
    struct Opened {
        var identifier: String
        var metadata: StoreMetadata
        var schema: StoreSchema
        /// The entities whose version hashes differ from the store's (read-only opening only).
        var differingEntities: [String] = []
        var tracksHistory = false
        /// The `ZTOMBSTONE0…` columns of the store's history (0 without).
        var tombstoneColumns = 0
        /// The number of the store's latest history transaction (0 without).
        var lastHistoryTransaction: Int64 = 0
    }

    /// Creates the schema in an empty database, or checks an existing store against the model.
    ///
    /// A store whose version hashes differ opens only read-only, and only when it numbers the
    /// model's entities alike and has every table and column the model needs; writing to it would
    /// need a migration.
    static func openOrCreate(_ db: Database, model: ManagedObjectModel, history: HistoryTracking) throws -> Opened {
        guard try db.tableExists("Z_METADATA") else {
            let tableCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table'") ?? 0
            guard tableCount == 0 else { throw StoreError.notAStore(reason: "the database has tables but no Z_METADATA") }
            var opened = try create(db, model: model)
            opened.tracksHistory = try HistoryTables.prepare(db, history, tombstoneColumns: HistorySchema.tombstoneColumnCount(of: model.model))
            opened.tombstoneColumns = opened.tracksHistory ? try HistoryTables.tombstoneColumnCount(db) : 0
            return opened
        }
        guard try db.tableExists("Z_PRIMARYKEY"),
              let row = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1")
        else { throw StoreError.notAStore(reason: "Z_METADATA or Z_PRIMARYKEY is missing or empty") }
        let identifier: String = row["Z_UUID"] ?? ""
        let metadata = try readMetadata(db)
        guard let stored = metadata.versionHashes else {
            throw StoreError.notAStore(reason: "the metadata has no NSStoreModelVersionHashes")
        }
        let differing = model.versionHashes.entitiesDiffering(from: stored)
        guard differing.isEmpty || db.configuration.readonly else { throw StoreError.modelMismatch(entities: differing) }
        if !differing.isEmpty, try !numbersEntitiesAlike(model.schema, db) { throw StoreError.modelMismatch(entities: differing) }
        let schema = try locatingJoinTables(of: model.schema, in: db)
        try checkStorage(of: schema, in: db)
        if !db.configuration.readonly { try installMissingTriggers(of: model.schema, in: db) }
        let tracksHistory = try HistoryTables.prepare(
            db, db.configuration.readonly ? .automatic : history, tombstoneColumns: HistorySchema.tombstoneColumnCount(of: model.model))
        return Opened(
            identifier: identifier, metadata: metadata, schema: schema, differingEntities: differing, tracksHistory: tracksHistory,
            tombstoneColumns: tracksHistory ? try HistoryTables.tombstoneColumnCount(db) : 0,
            lastHistoryTransaction: tracksHistory ? try Int64.fetchOne(db, sql: "SELECT ifnull(max(Z_PK), 0) FROM ATRANSACTION") ?? 0 : 0)
    }

    /// The metadata of the store in `db`.
    static func readMetadata(_ db: Database) throws -> StoreMetadata {
        try readMetadata(.sqlite(db))
    }

    /// The metadata of the store `database` holds.
    static func readMetadata(_ database: MigrationDatabase) throws -> StoreMetadata {
        let row = try database.rows("SELECT \(.Z_PLIST) FROM \(.Z_METADATA) ORDER BY \(.Z_VERSION) LIMIT 1", [])
        var plist = Data()
        row.forEach { if case .blob(let data) = $0.databaseValue(0).storage { plist = data } }
        do {
            return try StoreMetadata(binaryPropertyList: Array(plist))
        } catch {
            throw StoreError.notAStore(reason: "Z_METADATA.Z_PLIST: \(error)")
        }
    }

    /// Whether every entity of the model has the number the store gives it in `Z_PRIMARYKEY`, so
    /// that the rows' `Z_ENT` values name the same entities.
    private static func numbersEntitiesAlike(_ schema: StoreSchema, _ db: Database) throws -> Bool {
        var stored: [String: Int] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY") {
            if let name: String = row["Z_NAME"], let number: Int = row["Z_ENT"] { stored[name] = number }
        }
        return schema.entities.allSatisfy { stored[$0.name] == $0.number }
    }

    /// Every table and column the schema names exists in the store.
    static func checkStorage(of schema: StoreSchema, in db: Database) throws {
        func check(_ table: String, _ columns: [String]) throws {
            let present = Set(try db.columns(in: table).map { $0.name.uppercased() })
            guard !present.isEmpty else { throw StoreError.missingTable(table) }
            if let missing = columns.first(where: { !present.contains($0.uppercased()) }) {
                throw StoreError.missingColumn(table: table, column: missing)
            }
        }
        for table in schema.tables { try check(table.name, table.columns.map(\.name)) }
        for join in schema.joinTables { try check(join.name, join.columnNames) }
    }

    /// Gives a store written without them (by an earlier release) the triggers of its derived
    /// attributes, and computes their values. An attribute that has any trigger of its name pattern
    /// — Core Data's own, in a store Core Data wrote — is left as it is, so no value is counted twice.
    private static func installMissingTriggers(of schema: StoreSchema, in db: Database) throws {
        guard !schema.derivedAttributes.isEmpty else { return }
        let existing = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger'")
        for derived in schema.derivedAttributes {
            let prefix = "Z_DA_\(derived.table)_\(derived.entity)_\(derived.attribute)_"
            guard !existing.contains(where: { $0.hasPrefix(prefix) }) else { continue }
            for trigger in derived.triggers { try db.execute(sql: trigger.sql) }
            if let refresh = derived.refreshStatement { try db.execute(sql: refresh) }
        }
    }

    private static func create(_ db: Database, model: ManagedObjectModel) throws -> Opened {
        for statement in model.schema.createStatements { try db.execute(sql: statement) }
        for row in model.schema.primaryKeyRows {
            try db.execute(
                sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                arguments: [row.number, row.name, row.superNumber])
        }
        let identifier = UUID().uuidString
        let metadata = StoreMetadata(model: model.model)
        try db.execute(
            sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
            arguments: [identifier, Data(metadata.binaryPropertyList)])
        return Opened(identifier: identifier, metadata: metadata, schema: model.schema)
    }

    /// The schema with each join table named as the store names it: Core Data's choice of the side
    /// that names a join table is not fully known (format reference §2.5), so an existing store is
    /// searched for the table that holds both expected columns.
    static func locatingJoinTables(of schema: StoreSchema, in db: Database) throws -> StoreSchema {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        var columnsByTable: [String: Set<String>] = [:]
        do {
            return try schema.locatingJoinTables(among: tables) { table, column in
                if columnsByTable[table] == nil { columnsByTable[table] = Set(try db.columns(in: table).map(\.name)) }
                return columnsByTable[table]?.contains(column) ?? false
            }
        } catch let error as JoinTableLocationError {
            throw StoreError.ambiguousLayout("\(error)")
        }
    }
}
