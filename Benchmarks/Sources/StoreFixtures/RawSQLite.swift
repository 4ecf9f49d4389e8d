import Foundation
import GRDBSQLite

/// The floor: SQLite's C API with prepared statements in one transaction, on the same schema.
public enum RawSQLite {
    /// One row as plain Swift values.
    public struct ItemRow {
        public var primaryKey: Int64
        public var version: Int64
        public var added: Date?
        public var isActive: Bool
        public var name: String?
        public var price: Double
        public var quantity: Int64
    }

    /// One row as a plain class instance: what making an object per row costs by itself, without
    /// identity, uniquing or change tracking.
    public final class ItemObject {
        public var row: ItemRow

        init(_ row: ItemRow) {
            self.row = row
        }
    }

    /// One row as a class instance kept in an identity map, which it leaves as it goes: what
    /// uniquing needs of an object that nothing else keeps alive.
    public final class UniquedItemObject {
        /// Kept as read: its key is the object's entry in the map.
        public let row: ItemRow
        /// Not retained, as a context is not by its objects.
        private unowned(unsafe) let map: IdentityMap<UniquedItemObject>

        init(_ row: ItemRow, map: IdentityMap<UniquedItemObject>) {
            self.row = row
            self.map = map
        }

        deinit { map[Int(row.primaryKey)] = nil }
    }

    /// The cheapest identity map there is: an array indexed by the key itself (`Z_PK`s are dense),
    /// holding its objects unretained, so that an unused one goes away and clears its entry.
    public final class IdentityMap<Object: AnyObject> {
        @exclusivity(unchecked) private var objects: [Unmanaged<Object>?] = []

        public init() {}

        subscript(key: Int) -> Object? {
            get { key < objects.count ? objects[key]?.takeUnretainedValue() : nil }
            set {
                if key >= objects.count { objects.append(contentsOf: repeatElement(nil, count: key - objects.count + 1)) }
                objects[key] = newValue.map(Unmanaged.passUnretained)
            }
        }
    }

    public static func open(_ url: URL) -> OpaquePointer {
        var db: OpaquePointer?
        guard sqlite3_open_v2(url.path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let db else { fatalError("cannot open \(url.path)") }
        execute(db, "PRAGMA journal_mode = WAL")
        return db
    }

    public static func execute(_ db: OpaquePointer, _ sql: String) {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { fatalError(String(cString: sqlite3_errmsg(db))) }
    }

    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// The `INSERT` of one row, its key and values bound in the order `insertAll` binds them.
    static let insertion = "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZISACTIVE, ZQUANTITY, ZADDED, ZPRICE, ZNAME) VALUES (?, 1, 1, ?, ?, ?, ?, ?)"

    /// Inserts `count` rows with the bookkeeping Core Data's layout needs.
    public static func insertAll(_ db: OpaquePointer, count: Int = StoreFixtures.objectCount) {
        execute(db, "BEGIN IMMEDIATE")
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, insertion, -1, &statement, nil)
        for index in 0..<count {
            sqlite3_bind_int64(statement, 1, Int64(index + 1))
            sqlite3_bind_int64(statement, 2, index % 2 == 0 ? 1 : 0)
            sqlite3_bind_int64(statement, 3, Int64(index))
            sqlite3_bind_double(statement, 4, StoreFixtures.added(index).timeIntervalSinceReferenceDate)
            sqlite3_bind_double(statement, 5, StoreFixtures.price(index))
            sqlite3_bind_text(statement, 6, StoreFixtures.name(index), -1, transient)
            guard sqlite3_step(statement) == SQLITE_DONE else { fatalError(String(cString: sqlite3_errmsg(db))) }
            sqlite3_reset(statement)
        }
        sqlite3_finalize(statement)
        execute(db, "UPDATE Z_PRIMARYKEY SET Z_MAX = \(count) WHERE Z_ENT = 1")
        execute(db, "COMMIT")
    }

    /// Every row's columns, in the order `row(_:)` reads them.
    public static let selection = "SELECT Z_PK, Z_OPT, ZADDED, ZISACTIVE, ZNAME, ZPRICE, ZQUANTITY FROM ZITEM ORDER BY Z_PK"

    /// Every row, decoded into Swift values.
    public static func fetchAll(_ db: OpaquePointer) -> [ItemRow] {
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, selection, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        return rows(statement)
    }

    /// Every row, decoded into one class instance each.
    public static func fetchAllObjects(_ db: OpaquePointer) -> [ItemObject] {
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, selection, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        var objects: [ItemObject] = []
        while sqlite3_step(statement) == SQLITE_ROW { objects.append(ItemObject(row(statement))) }
        return objects
    }

    /// Every row, decoded into one instance each and kept in `map` by `Z_PK`, as a context keeps
    /// one object per row: the least a uniquing fetch does beyond plain instances. Keep `map`
    /// alive while the objects are.
    public static func fetchAllUniquedObjects(_ db: OpaquePointer, into map: IdentityMap<UniquedItemObject>) -> [UniquedItemObject] {
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, selection, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        var objects: [UniquedItemObject] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            let key = Int(sqlite3_column_int64(statement, 0))
            if let known = map[key] {
                objects.append(known)
            } else {
                let object = UniquedItemObject(row(statement), map: map)
                map[key] = object
                objects.append(object)
            }
        }
        return objects
    }

    /// The rows a prepared `SELECT Z_PK, Z_OPT, ZADDED, ZISACTIVE, ZNAME, ZPRICE, ZQUANTITY …` returns.
    public static func rows(_ statement: OpaquePointer?) -> [ItemRow] {
        var rows: [ItemRow] = []
        while sqlite3_step(statement) == SQLITE_ROW { rows.append(row(statement)) }
        return rows
    }

    /// The current row of such a statement.
    private static func row(_ statement: OpaquePointer?) -> ItemRow {
        ItemRow(
            primaryKey: sqlite3_column_int64(statement, 0),
            version: sqlite3_column_int64(statement, 1),
            added: sqlite3_column_type(statement, 2) == SQLITE_NULL ? nil : Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, 2)),
            isActive: sqlite3_column_int64(statement, 3) != 0,
            name: sqlite3_column_text(statement, 4).map { String(cString: $0) },
            price: sqlite3_column_double(statement, 5),
            quantity: sqlite3_column_int64(statement, 6))
    }
}
