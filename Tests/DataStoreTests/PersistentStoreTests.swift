import DataModel
import DataStore
import Foundation
import GRDB
import GeneratedBooks
import StoreSchema
import Testing

@Suite struct PersistentStoreTests {
    @Test func newStore_hasCoreDataLayoutAndMetadata() throws {
        let url = TestStores.newStoreURL()
        let store = try PersistentStore(url: url, model: TestStores.library)
        #expect(UUID(uuidString: store.identifier)?.uuidString == store.identifier)
        let database = try DatabaseQueue(path: url.path)
        try database.read { db in
            let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
            let expected = Set(TestStores.library.schema.tables.map(\.name) + TestStores.library.schema.joinTables.map(\.name)
                + ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"])
            #expect(tables == expected)
            let rows = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
            #expect(rows.map { $0["Z_NAME"] as String } == TestStores.library.schema.entities.map(\.name))
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
            #expect(try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") == 2)
            let plist = try #require(try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA"))
            #expect(try StoreMetadata(binaryPropertyList: Array(plist)).versionHashes == TestStores.library.versionHashes)
            #expect(try String.fetchOne(db, sql: "SELECT Z_UUID FROM Z_METADATA") == store.identifier)
        }
    }

    @Test func reopening_keepsIdentifierAndData() throws {
        let url = TestStores.newStoreURL()
        let identifier: String
        do {
            let store = try PersistentStore(url: url, model: TestStores.books)
            identifier = store.identifier
            let context = store.newContext()
            Book(context: context).title = "Emma"
            try context.save()
        }
        let reopened = try PersistentStore(url: url, model: TestStores.books)
        #expect(reopened.identifier == identifier)
        #expect(try reopened.newContext().fetch(FetchRequest<Book>()).map(\.title) == ["Emma"])
    }

    @Test func openingWithAChangedModel_failsNamingTheEntities_andChangesNothing() throws {
        let url = TestStores.newStoreURL()
        _ = try PersistentStore(url: url, model: TestStores.library)
        let before = try Data(contentsOf: url)
        var changed = TestStores.library.model
        let index = try #require(changed.entities.firstIndex { $0.name == "Chapter" })
        changed.entities[index].attributes[0].type = .string
        #expect(throws: StoreError.modelMismatch(entities: ["Chapter"])) {
            try PersistentStore(url: url, model: ManagedObjectModel(model: changed))
        }
        // Byte for byte, except SQLite's change counters in the file header (offsets 24 and 92),
        // which closing a connection may bump.
        let after = try Data(contentsOf: url)
        let differing = zip(after, before).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(after.count == before.count)
        #expect(differing.allSatisfy { (24..<28).contains($0) || (92..<96).contains($0) })
    }

    @Test func openingSomethingElse_isATypedError() throws {
        let url = TestStores.newStoreURL()
        let database = try DatabaseQueue(path: url.path)
        try database.write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT)") }
        try database.close()
        #expect(throws: StoreError.notAStore(reason: "the database has tables but no Z_METADATA")) {
            try PersistentStore(url: url, model: TestStores.books)
        }
    }

    @Test func inMemoryStore_works() throws {
        let store = try PersistentStore.inMemory(model: TestStores.books)
        let context = store.newContext()
        Book(context: context).title = "Sense and Sensibility"
        try context.save()
        #expect(try store.newContext().fetch(FetchRequest<Book>()).count == 1)
    }
}
