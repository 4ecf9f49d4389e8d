import DataStore
import GRDBSQLite

/// The computing predicate benchmark: `(quantity & 3) != 0 AND price * 2 < %d` over the 100,000
/// items — a bit mask and arithmetic, as apps keep flags and compute — matching three in four.
/// The floor runs the same condition, written by hand, through SQLite's C API.
public enum ComputedPredicateFixture {
    public static let format = "(quantity & 3) != 0 AND price * 2 < %d"
    public static let bound = 2 * PredicateFixture.maximumPrice
    public static let matchCount = StoreFixtures.objectCount / 4 * 3

    public static func request() throws -> DataStore.FetchRequest<Item> {
        DataStore.FetchRequest<Item>(predicate: try ObjectPredicate(format: format, bound))
    }

    public static let selection = "SELECT Z_PK, Z_OPT, ZADDED, ZISACTIVE, ZNAME, ZPRICE, ZQUANTITY FROM ZITEM WHERE (ZQUANTITY & 3) <> 0 AND ZPRICE * 2 < ? ORDER BY Z_PK"

    /// The matching rows, decoded into Swift values, through SQLite's C API.
    public static func rawFetch(_ db: OpaquePointer) -> [RawSQLite.ItemRow] {
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, selection, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_int64(statement, 1, Int64(bound))
        return RawSQLite.rows(statement)
    }
}
