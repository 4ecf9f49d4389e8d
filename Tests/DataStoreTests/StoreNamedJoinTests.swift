import DataModel
import DataModelParser
import DataStore
import Foundation
import GRDB
import PostgreSQLStore
import TestSupport
import Testing

/// A store whose join columns carry the collision suffixes in the other order than the computed
/// layout, as another Core Data release may have written them: it opens, reads and saves under
/// its own names.
@Suite struct StoreNamedJoinTests {
    static func model() throws -> ManagedObjectModel {
        let path = TestStores.packageRoot.appendingPathComponent("Tests/StoreSchemaTests/Fixtures/ManyToMany.xcdatamodel").path
        let loaded = try ModelLoader().load(path)
        try #require(!loaded.diagnostics.containsErrors)
        return ManagedObjectModel(model: loaded.model)
    }

    /// A store with an item on a playlist and with a tag, its join columns then renamed to the
    /// other suffix order: `Z_1PLAYLISTS (Z_1ITEMS1, …, Z_FOK_1ITEMS1)`, `Z_1TAGS (Z_1ITEMS, …)`.
    static func storeWithSwappedSuffixes(_ model: ManagedObjectModel) throws -> URL {
        let url = TestStores.newStoreURL()
        do {
            let context = try PersistentStore(url: url, model: model).newContext()
            let item = try context.insertObject(entityName: "Item")
            try item.setValue("Song", forKey: "name")
            let playlist = try context.insertObject(entityName: "Playlist")
            try playlist.setValue([item], forKey: "items")
            let tag = try context.insertObject(entityName: "Tag")
            try tag.setValue("jazz", forKey: "name")
            try tag.setValue(Set([item]), forKey: "items")
            try context.save()
        }
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "ALTER TABLE Z_1PLAYLISTS RENAME COLUMN Z_1ITEMS TO Z_1ITEMS_SWAP")
            try db.execute(sql: "ALTER TABLE Z_1PLAYLISTS RENAME COLUMN Z_FOK_1ITEMS TO Z_FOK_1ITEMS1")
            try db.execute(sql: "ALTER TABLE Z_1TAGS RENAME COLUMN Z_1ITEMS1 TO Z_1ITEMS")
            try db.execute(sql: "ALTER TABLE Z_1PLAYLISTS RENAME COLUMN Z_1ITEMS_SWAP TO Z_1ITEMS1")
        }
        return url
    }

    /// Every table's definition and rows, as text.
    static func contents(of url: URL) throws -> [String] {
        try DatabaseQueue(path: url.path).read { db in
            var lines = try String.fetchAll(db, sql: "SELECT ifnull(sql, name) FROM sqlite_master ORDER BY name")
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
                lines += try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"").map { "\(table): \($0)" }
            }
            return lines
        }
    }

    @Test func aStoreWithTheOtherSuffixOrder_opensReadsAndSavesUnderItsNames() throws {
        let model = try Self.model()
        let url = try Self.storeWithSwappedSuffixes(model)
        let store = try PersistentStore(url: url, model: model)
        let context = store.newContext()
        let item = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")).first)
        #expect((item.value(forKey: "playlists") as? Set<ManagedObject>)?.count == 1)
        let tags = try #require(item.value(forKey: "tags") as? Set<ManagedObject>)
        #expect(tags.map { $0.value(forKey: "name") as? String } == ["jazz"])

        let second = try context.insertObject(entityName: "Item")
        try second.setValue("Tune", forKey: "name")
        try second.setValue(tags, forKey: "tags")
        let playlist = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Playlist")).first)
        try playlist.setValue([item, second], forKey: "items")
        try context.save()
        let rows = try DatabaseQueue(path: url.path).read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM Z_1TAGS WHERE Z_1ITEMS IS NOT NULL") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM Z_1PLAYLISTS WHERE Z_1ITEMS1 IS NOT NULL AND Z_FOK_1ITEMS1 IS NOT NULL") ?? 0)
        }
        #expect(rows == (2, 2), "the links are written into the store's own columns")
        let reread = try PersistentStore.readOnly(url: url, model: model).newContext()
        let order = try #require(try reread.fetch(FetchRequest<ManagedObject>(entityName: "Playlist")).first?.value(forKey: "items") as? [ManagedObject])
        #expect(order.map { $0.value(forKey: "name") as? String } == ["Song", "Tune"])
    }

    @Test func columnsOfEqualStanding_refuseToOpen_changingNothing() throws {
        let model = try Self.model()
        let url = try Self.storeWithSwappedSuffixes(model)
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "ALTER TABLE Z_1TAGS RENAME COLUMN Z_1ITEMS TO Z_1ITEMS2")
            try db.execute(sql: "ALTER TABLE Z_1TAGS ADD COLUMN Z_1ITEMS3 INTEGER")
        }
        let before = try Self.contents(of: url)
        #expect(performing: { try PersistentStore(url: url, model: model) }, throws: { error in
            guard case StoreError.ambiguousLayout(let message) = error else { return false }
            return message.contains("Z_1TAGS.Z_1ITEMS2") && message.contains("Z_1TAGS.Z_1ITEMS3")
        })
        #expect(try Self.contents(of: url) == before, "the store is as it was")
    }

    @Test func aCopyToPostgreSQLAndBack_carriesEveryLink() async throws {
        let model = try Self.model()
        let url = try Self.storeWithSwappedSuffixes(model)
        let back = TestStores.newStoreURL()
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let copier = StoreCopier(model: model.model)
            _ = try await copier.copy(from: StoreLocation(url.path), to: StoreLocation(database))
            _ = try await copier.copy(from: StoreLocation(database), to: StoreLocation(back.path))
        }
        let context = try PersistentStore(url: back, model: model).newContext()
        let item = try #require(try await context.fetch(FetchRequest<ManagedObject>(entityName: "Item")).first)
        #expect((item.value(forKey: "playlists") as? Set<ManagedObject>)?.count == 1)
        #expect((item.value(forKey: "tags") as? Set<ManagedObject>)?.map { $0.value(forKey: "name") as? String } == ["jazz"])
    }
}
