import Foundation
import GRDB

/// The peer: a GRDB record on the same table, with the hand-written row decoding GRDB recommends
/// for speed (not `Codable`).
public struct ItemRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "ZITEM"

    public var primaryKey: Int64
    /// `Z_OPT`, which every update counts up, as Core Data's optimistic locking expects.
    public var version: Int64
    public var added: Date?
    public var isActive: Bool
    public var name: String?
    public var price: Double
    public var quantity: Int64

    public init(index: Int) {
        primaryKey = Int64(index + 1)
        version = 1
        added = StoreFixtures.added(index)
        isActive = index % 2 == 0
        name = StoreFixtures.name(index)
        price = StoreFixtures.price(index)
        quantity = Int64(index)
    }

    public init(row: Row) {
        primaryKey = row[0]
        version = row[1]
        added = (row[2] as Double?).map(Date.init(timeIntervalSinceReferenceDate:))
        isActive = row[3]
        name = row[4]
        price = row[5]
        quantity = row[6]
    }

    public func encode(to container: inout PersistenceContainer) {
        container["Z_PK"] = primaryKey
        container["Z_ENT"] = 1
        container["Z_OPT"] = version
        container["ZADDED"] = added?.timeIntervalSinceReferenceDate
        container["ZISACTIVE"] = isActive
        container["ZNAME"] = name
        container["ZPRICE"] = price
        container["ZQUANTITY"] = quantity
    }

    public static let selection = RawSQLite.selection

    /// Inserts `StoreFixtures.objectCount` records in one transaction.
    public static func insertAll(_ database: DatabasePool) throws {
        try database.write { db in
            for index in 0..<StoreFixtures.objectCount { try ItemRecord(index: index).insert(db) }
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = 1", arguments: [StoreFixtures.objectCount])
        }
    }
}
