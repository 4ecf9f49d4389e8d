import Foundation
import GRDBSQLite

/// The floor of any object graph's insert: SQLite's C API writing class instances that a unit of
/// work made, kept by temporary key, and keeps by their rows' keys once saved — the least a context
/// does beyond binding values, with no change tracking, validation or notifications.
extension RawSQLite {
    /// A new item: in its map under a temporary key until saved, then under its row's key, which
    /// it leaves as it goes.
    public final class InsertedItemObject {
        var key: Int
        var added: Date?
        var isActive = false
        var name: String?
        var price = 0.0
        var quantity: Int64 = 0
        /// Not retained, as a context is not by its objects.
        private unowned(unsafe) let saved: IdentityMap<InsertedItemObject>

        init(temporaryKey: Int, saved: IdentityMap<InsertedItemObject>) {
            key = temporaryKey
            self.saved = saved
        }

        deinit { saved[key] = nil }
    }

    /// Makes `count` items (the values `insertAll` writes), keeping each in a map by temporary key
    /// and in the list of inserted objects; saves them in one transaction, binding each from its
    /// instance; moves each into the map of saved objects under its key; then lets them go.
    public static func insertAllObjects(_ db: OpaquePointer, count: Int = StoreFixtures.objectCount) {
        let temporary = IdentityMap<InsertedItemObject>(), saved = IdentityMap<InsertedItemObject>()
        withExtendedLifetime((temporary, saved)) {
            var inserted: [InsertedItemObject] = []
            for index in 0..<count {
                let object = InsertedItemObject(temporaryKey: index + 1, saved: saved)
                temporary[object.key] = object
                inserted.append(object)
                object.name = StoreFixtures.name(index)
                object.price = StoreFixtures.price(index)
                object.quantity = Int64(index)
                object.isActive = index % 2 == 0
                object.added = StoreFixtures.added(index)
            }

            execute(db, "BEGIN IMMEDIATE")
            var statement: OpaquePointer?
            sqlite3_prepare_v2(db, insertion, -1, &statement, nil)
            for (index, object) in inserted.enumerated() {
                sqlite3_bind_int64(statement, 1, Int64(index + 1))
                sqlite3_bind_int64(statement, 2, object.isActive ? 1 : 0)
                sqlite3_bind_int64(statement, 3, object.quantity)
                if let added = object.added { sqlite3_bind_double(statement, 4, added.timeIntervalSinceReferenceDate) } else { sqlite3_bind_null(statement, 4) }
                sqlite3_bind_double(statement, 5, object.price)
                if let name = object.name { sqlite3_bind_text(statement, 6, name, -1, transient) } else { sqlite3_bind_null(statement, 6) }
                guard sqlite3_step(statement) == SQLITE_DONE else { fatalError(String(cString: sqlite3_errmsg(db))) }
                sqlite3_reset(statement)
            }
            sqlite3_finalize(statement)
            execute(db, "UPDATE Z_PRIMARYKEY SET Z_MAX = \(count) WHERE Z_ENT = 1")
            execute(db, "COMMIT")

            for (index, object) in inserted.enumerated() {
                temporary[object.key] = nil
                object.key = index + 1
                saved[object.key] = object
            }
            inserted.removeAll()
        }
    }
}
