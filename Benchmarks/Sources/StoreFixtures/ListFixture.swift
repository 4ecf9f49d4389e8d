import DataStore
import Foundation
import GRDBSQLite

/// A store of `count` items for the results-controller benchmarks: prices in a scrambled order
/// (so the sort is real work) and `quantity` in 0..<26, the section key.
public enum ListFixture {
    public static let sectionCount = 26

    public static func price(_ index: Int, count: Int) -> Double { Double(index * 7_919 % count) }

    /// A new store file holding `count` items, written through SQLite's C API.
    public static func storeURL(count: Int) throws -> URL {
        let url = StoreFixtures.newStoreURL()
        _ = try PersistentStore(url: url, model: StoreFixtures.model)
        let db = RawSQLite.open(url)
        defer { sqlite3_close(db) }
        RawSQLite.execute(db, "BEGIN IMMEDIATE")
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZISACTIVE, ZQUANTITY, ZPRICE, ZNAME) VALUES (?, 1, 1, 0, ?, ?, NULL)", -1, &statement, nil)
        for index in 0..<count {
            sqlite3_bind_int64(statement, 1, Int64(index + 1))
            sqlite3_bind_int64(statement, 2, Int64(index % sectionCount))
            sqlite3_bind_double(statement, 3, price(index, count: count))
            guard sqlite3_step(statement) == SQLITE_DONE else { fatalError(String(cString: sqlite3_errmsg(db))) }
            sqlite3_reset(statement)
        }
        sqlite3_finalize(statement)
        RawSQLite.execute(db, "UPDATE Z_PRIMARYKEY SET Z_MAX = \(count) WHERE Z_ENT = 1")
        RawSQLite.execute(db, "COMMIT")
        return url
    }

    /// The request every contender answers: items by price, 20 per batch; with sections, by
    /// quantity first.
    public static func request(sections: Bool) -> FetchRequest<Item> {
        var request = FetchRequest<Item>()
        request.sortDescriptors = [ObjectSortDescriptor(Item.price)]
        if sections { request.sortDescriptors.insert(ObjectSortDescriptor(Item.quantity), at: 0) }
        request.fetchBatchSize = 20
        return request
    }

    /// The floor of opening: the keys in order, and with sections the section lengths.
    public static func rawOpen(_ db: OpaquePointer, sections: Bool) -> (keys: [Int64], lengths: [Int]) {
        var keys: [Int64] = []
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, sections ? "SELECT Z_PK FROM ZITEM ORDER BY ZQUANTITY, ZPRICE, Z_PK" : "SELECT Z_PK FROM ZITEM ORDER BY ZPRICE, Z_PK", -1, &statement, nil)
        while sqlite3_step(statement) == SQLITE_ROW { keys.append(sqlite3_column_int64(statement, 0)) }
        sqlite3_finalize(statement)
        var lengths: [Int] = []
        if sections {
            sqlite3_prepare_v2(db, "SELECT ZQUANTITY, COUNT(*) FROM ZITEM GROUP BY ZQUANTITY ORDER BY ZQUANTITY", -1, &statement, nil)
            while sqlite3_step(statement) == SQLITE_ROW { lengths.append(Int(sqlite3_column_int64(statement, 1))) }
            sqlite3_finalize(statement)
        }
        return (keys, lengths)
    }

    /// The floor of reading one batch: the rows of `keys`, decoded, in the fetch's order.
    public static func rawBatch(_ db: OpaquePointer, keys: ArraySlice<Int64>) -> [RawSQLite.ItemRow] {
        var statement: OpaquePointer?
        let placeholders = Array(repeating: "?", count: keys.count).joined(separator: ",")
        sqlite3_prepare_v2(db, "SELECT Z_PK, Z_OPT, ZADDED, ZISACTIVE, ZNAME, ZPRICE, ZQUANTITY FROM ZITEM WHERE Z_PK IN (\(placeholders)) ORDER BY ZPRICE, Z_PK", -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        for (index, key) in keys.enumerated() { sqlite3_bind_int64(statement, Int32(index + 1), key) }
        return RawSQLite.rows(statement)
    }
}
