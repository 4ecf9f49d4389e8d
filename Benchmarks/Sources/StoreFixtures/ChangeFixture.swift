import DataStore
import Foundation
import GRDBSQLite

/// The update and delete benchmarks: every tenth of the 100,000 items (`Z_PK` 1, 11, 21, …) is
/// changed, or deleted, and saved in one transaction, by objects already in memory. Each contender
/// works on its own copy of the filled store, and the copy is checked afterwards.
public enum ChangeFixture {
    public static let changedCount = StoreFixtures.objectCount / 10

    /// Whether the row with `primaryKey` is one the benchmarks change.
    public static func isChanged(_ primaryKey: Int64) -> Bool { (primaryKey - 1) % 10 == 0 }

    /// The price a changed row gets: negative, which no original price is.
    public static func updatedPrice(_ primaryKey: Int64) -> Double { -Double(primaryKey) }

    /// DataStore's workload: the changed items' prices set through the generated-style property,
    /// then one save.
    public static func updateChanged(_ items: [Item], in context: ObjectContext) throws {
        for item in items where isChanged(item.objectID.primaryKey!) {
            item.price = updatedPrice(item.objectID.primaryKey!)
        }
        try context.save()
    }

    /// DataStore's workload: the changed items deleted, then one save.
    public static func deleteChanged(_ items: [Item], in context: ObjectContext) throws {
        for item in items where isChanged(item.objectID.primaryKey!) { context.delete(item) }
        try context.save()
    }

    /// A copy of the store at `url`, its write-ahead log included, in a new file.
    public static func copy(of url: URL) -> URL {
        let copy = StoreFixtures.newStoreURL()
        let db = RawSQLite.open(url)
        RawSQLite.execute(db, "VACUUM INTO '\(copy.path)'")
        sqlite3_close(db)
        return copy
    }

    /// Checks that exactly the changed rows have their new price and a `Z_OPT` counted up once.
    public static func verifyUpdated(_ url: URL) {
        let updated = count(url, "SELECT COUNT(*) FROM ZITEM WHERE ZPRICE = -Z_PK AND Z_OPT = 2 AND (Z_PK - 1) % 10 = 0")
        let others = count(url, "SELECT COUNT(*) FROM ZITEM WHERE ZPRICE < 0 AND (Z_PK - 1) % 10 != 0")
        precondition(updated == changedCount && others == 0, "\(updated) rows updated, \(others) others changed")
    }

    /// Checks that exactly the changed rows are gone.
    public static func verifyDeleted(_ url: URL) {
        let remaining = count(url, "SELECT COUNT(*) FROM ZITEM")
        let deleted = count(url, "SELECT COUNT(*) FROM ZITEM WHERE (Z_PK - 1) % 10 = 0")
        precondition(remaining == StoreFixtures.objectCount - changedCount && deleted == 0, "\(remaining) rows remain, \(deleted) of them to delete")
    }

    private static func count(_ url: URL, _ sql: String) -> Int {
        let db = RawSQLite.open(url)
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { fatalError(String(cString: sqlite3_errmsg(db))) }
        return Int(sqlite3_column_int64(statement, 0))
    }
}

extension RawSQLite {
    /// The floor of the update benchmark: the changed rows' new prices written with the check
    /// optimistic locking makes (`Z_OPT` as read), in one transaction.
    public static func updateChanged(_ db: OpaquePointer, rows: [ItemRow]) {
        execute(db, "BEGIN IMMEDIATE")
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, "UPDATE ZITEM SET ZPRICE = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?", -1, &statement, nil)
        for row in rows where ChangeFixture.isChanged(row.primaryKey) {
            sqlite3_bind_double(statement, 1, ChangeFixture.updatedPrice(row.primaryKey))
            sqlite3_bind_int64(statement, 2, row.version + 1)
            sqlite3_bind_int64(statement, 3, row.primaryKey)
            sqlite3_bind_int64(statement, 4, row.version)
            guard sqlite3_step(statement) == SQLITE_DONE, sqlite3_changes(db) == 1 else { fatalError("update of \(row.primaryKey) failed") }
            sqlite3_reset(statement)
        }
        sqlite3_finalize(statement)
        execute(db, "COMMIT")
    }

    /// The floor of the delete benchmark: the changed rows deleted with the same check.
    public static func deleteChanged(_ db: OpaquePointer, rows: [ItemRow]) {
        execute(db, "BEGIN IMMEDIATE")
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, "DELETE FROM ZITEM WHERE Z_PK = ? AND Z_OPT = ?", -1, &statement, nil)
        for row in rows where ChangeFixture.isChanged(row.primaryKey) {
            sqlite3_bind_int64(statement, 1, row.primaryKey)
            sqlite3_bind_int64(statement, 2, row.version)
            guard sqlite3_step(statement) == SQLITE_DONE, sqlite3_changes(db) == 1 else { fatalError("delete of \(row.primaryKey) failed") }
            sqlite3_reset(statement)
        }
        sqlite3_finalize(statement)
        execute(db, "COMMIT")
    }
}
