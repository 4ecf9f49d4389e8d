import Foundation
import GRDB
import StoreSchema

/// Collects one transaction's changes and writes them to the history tables, inside the database
/// transaction that makes the changes, so history and data commit or roll back together.
struct HistoryRecorder {
    struct Change {
        var type: HistorySchema.ChangeType
        var entityNumber: Int
        var key: Int64
        /// For an update, the changed properties' bits (``HistoryColumns``).
        var columns: Data?
        /// For a delete, the preserved values (``HistoryTombstones``).
        var tombstone: [DatabaseValue] = []
    }

    private(set) var changes: [Change] = []
    /// The bits of each set of changed properties, by entity number, made once: the objects of a
    /// save or a batch update tend to change the same properties.
    private var columnsByProperties: [Int: [Set<String>: Data?]] = [:]

    mutating func record(_ type: HistorySchema.ChangeType, entityNumber: Int, key: Int64, columns: Data? = nil, tombstone: [DatabaseValue] = []) {
        changes.append(Change(type: type, entityNumber: entityNumber, key: key, columns: columns, tombstone: tombstone))
    }

    /// Records an update of the row `key` of `entity` that changed `properties`, whose bits
    /// `layout` gives.
    mutating func recordUpdate(of entity: EntityDescription, key: Int64, properties: Set<String>, layout: @autoclosure () -> HistoryColumns) {
        let columns: Data?
        if let known = columnsByProperties[entity.number]?[properties] {
            columns = known
        } else {
            columns = layout().data(for: properties)
            columnsByProperties[entity.number, default: [:]][properties] = columns
        }
        record(.update, entityNumber: entity.number, key: key, columns: columns)
    }

    /// Writes the transaction and its changes, and returns the transaction's number.
    func write(author: String?, contextName: String?, tombstoneColumns: Int, in db: Database) throws -> Int64 {
        let transaction = try Self.allocateKeys(1, of: HistorySchema.transactionEntity, table: HistorySchema.transactionTable, db)
        try db.cachedStatement(sql: """
            INSERT INTO ATRANSACTION (Z_PK, Z_ENT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                transaction, HistorySchema.transactionEntity, try Self.stringKey(author, db), try Self.stringKey(Self.bundleID, db),
                try Self.stringKey(contextName, db), try Self.stringKey(Self.processID, db), Date().timeIntervalSinceReferenceDate,
            ])
        guard !changes.isEmpty else { return transaction }
        var key = try Self.allocateKeys(Int64(changes.count), of: HistorySchema.changeEntity, table: HistorySchema.changeTable, db)
        let tombstones = HistorySchema.tombstoneColumnList(tombstoneColumns)
        let insert = try db.cachedStatement(sql: """
            INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS\(tombstones)) \
            VALUES (?, ?, ?, ?, ?, ?, ?\(String(repeating: ", ?", count: tombstoneColumns)))
            """)
        // Bound through SQLite's C API: building GRDB's arguments for each change would cost as
        // much as writing it.
        for change in changes {
            var row = ParameterBinder(insert, logging: false)
            row.bind(key.databaseValue)
            row.bind(HistorySchema.changeEntity.databaseValue)
            row.bind(Int64(change.type.rawValue).databaseValue)
            row.bind(change.entityNumber.databaseValue)
            row.bind(change.key.databaseValue)
            row.bind(transaction.databaseValue)
            row.bind(change.columns?.databaseValue ?? .null)
            for index in 0..<tombstoneColumns {
                row.bind(index < change.tombstone.count ? change.tombstone[index] : .null)
            }
            try row.execute()
            key += 1
        }
        return transaction
    }

    /// The app's bundle identifier where there is one (Apple's platforms).
    static let bundleID = Bundle.main.bundleIdentifier
    static let processID = ProcessInfo.processInfo.processName

    /// Takes `count` keys of a history table from `Z_PRIMARYKEY` (past any key already used, in
    /// case the row lags) and returns the first.
    private static func allocateKeys(_ count: Int64, of entity: Int, table: String, _ db: Database) throws -> Int64 {
        let last = try Int64.fetchOne(
            db, sql: "SELECT max(ifnull((SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?), 0), ifnull((SELECT max(Z_PK) FROM \(table)), 0))",
            arguments: [entity]) ?? 0
        try db.cachedStatement(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?").execute(arguments: [last + count, entity])
        return last + 1
    }

    /// The key of `name` in `ATRANSACTIONSTRING`, added when new; `nil` for no name.
    private static func stringKey(_ name: String?, _ db: Database) throws -> Int64? {
        guard let name else { return nil }
        if let key = try Int64.fetchOne(db.cachedStatement(sql: "SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?"), arguments: [name]) {
            return key
        }
        let key = try allocateKeys(1, of: HistorySchema.stringEntity, table: HistorySchema.stringTable, db)
        try db.cachedStatement(sql: "INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, ZNAME) VALUES (?, ?, ?)")
            .execute(arguments: [key, HistorySchema.stringEntity, name])
        return key
    }
}
