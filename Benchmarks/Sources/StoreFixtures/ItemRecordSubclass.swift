import Foundation
import GRDB

/// The peer of like kind in GRDB: a `Record` subclass, an object per row that tracks its changes
/// (it keeps the row it was read from, and `updateChanges` writes the columns that differ).
public final class ItemRecordSubclass: Record {
    public override static var databaseTableName: String { "ZITEM" }

    public var primaryKey: Int64
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
        super.init()
    }

    public required init(row: Row) throws {
        primaryKey = row[0]
        version = row[1]
        added = (row[2] as Double?).map(Date.init(timeIntervalSinceReferenceDate:))
        isActive = row[3]
        name = row[4]
        price = row[5]
        quantity = row[6]
        try super.init(row: row)
    }

    public override func encode(to container: inout PersistenceContainer) throws {
        container["Z_PK"] = primaryKey
        container["Z_ENT"] = 1
        container["Z_OPT"] = version
        container["ZADDED"] = added?.timeIntervalSinceReferenceDate
        container["ZISACTIVE"] = isActive
        container["ZNAME"] = name
        container["ZPRICE"] = price
        container["ZQUANTITY"] = quantity
    }

    /// Inserts `StoreFixtures.objectCount` records in one transaction; with `identities`, each
    /// new record joins them, as an object inserted in a context does.
    public static func insertAll(_ database: DatabasePool, identities: RecordIdentities<ItemRecordSubclass>? = nil) throws {
        try database.write { db in
            for index in 0..<StoreFixtures.objectCount {
                let record = ItemRecordSubclass(index: index)
                try record.insert(db)
                identities?.register(record, key: record.primaryKey)
            }
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = 1", arguments: [StoreFixtures.objectCount])
        }
    }
}
