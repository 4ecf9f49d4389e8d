@testable import DataStore
import DataModel
import DataModelParser
import Foundation
import GRDB
import Library
import StoreMigration
import StoreSchema
import Testing
import TestSupport

/// Migrations checked against what Core Data left: the corpus has a store before and after Core
/// Data's own lightweight migration, and the bundled `Everything` model has two versions.
@Suite struct MigrationCorpusTests {
    typealias S = MigrationSupport

    /// The CoreDataPlus store at version 1, migrated here to version 2, equals the store Core Data
    /// migrated: the same tables and columns in the same order, the same indexes, the same
    /// `Z_PRIMARYKEY` (the renamed entity keeps its old name) and the same rows.
    @Test(.enabled(if: CorpusStore.isAvailable, "needs ../shared/corpus"))
    func coreDataPlus_version1To2_leavesWhatCoreDataLeaves() throws {
        let before = CorpusStore("CoreDataPlus__SampleModel_V1")
        let after = CorpusStore("CoreDataPlus__SampleModel_V2")
        let bundle = before.folder.appendingPathComponent("SampleModel.xcdatamodeld").path
        let loaded = try ModelLoader().loadVersions(bundle)
        let versions = loaded.versions.map(\.model)
        let version2 = try #require(versions.first { $0.versionName == "SampleModel2" })
        let url = try before.copyOfStoreFile()
        let plans = try PersistentStore.migrateStore(at: url, model: ManagedObjectModel(model: version2, versions: versions))
        #expect(plans.count == 1)
        #expect(try S.integrity(url) == "ok")

        let ours = try DatabaseQueue(path: url.path)
        let theirs = try DatabaseQueue(path: after.copyOfStoreFile().path)
        func layout(_ queue: DatabaseQueue) throws -> [String] {
            try queue.read { db in
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                let columns = try tables.map { "\($0): \(try db.columns(in: $0).map { "\($0.name) \($0.type)" }.joined(separator: ", "))" }
                let indexes = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
                return columns + indexes
            }
        }
        #expect(try layout(ours) == layout(theirs))
        func rows(_ queue: DatabaseQueue) throws -> [[DatabaseValue]] {
            try queue.read { db in
                try ["ZCAR", "ZPERSON", "Z_PRIMARYKEY"].flatMap { table in
                    try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1").map { Array($0.databaseValues) }
                }
            }
        }
        #expect(try rows(ours) == rows(theirs))
        let metadata = try ours.read { try PersistentStore.readMetadata($0) }
        #expect(metadata.versionIdentifiers == ["2"])
        #expect(metadata.versionHashes == ModelVersionHashes(model: version2))

        let store = try PersistentStore(url: url, model: ManagedObjectModel(model: version2, versions: versions))
        #expect(try store.newContext().count(for: FetchRequest<ManagedObject>(entityName: "Car")) == 125)
    }

    /// A plan for a corpus store and a later version of its model, printed without touching it.
    @Test(.enabled(if: CorpusStore.isAvailable, "needs ../shared/corpus"))
    func coreDataPlus_version2To3_plansWithoutChangingTheStore() throws {
        let store = CorpusStore("CoreDataPlus__SampleModel_V2")
        let versions = try ModelLoader().loadVersions(store.folder.appendingPathComponent("SampleModel.xcdatamodeld").path).versions.map(\.model)
        let version3 = try #require(versions.first { $0.versionName == "SampleModel3" })
        let url = try store.copyOfStoreFile()
        let original = try Data(contentsOf: url)
        let plan = try #require(try PersistentStore.migrationPlan(at: url, model: ManagedObjectModel(model: version3, versions: versions)))
        let text = plan.description
        #expect(text.contains("Migration SampleModel2 → SampleModel3"))
        #expect(text.contains("Maker: new entity"))
        #expect(text.contains("Car.maker: attribute removed"))
        #expect(text.contains("CREATE TABLE ZMAKER"))
        #expect(text.contains("entities renumbered: Person 4 → 5"))
        #expect(try Data(contentsOf: url) == original)
    }

    /// A store written by a version the app's model no longer has migrates from the model the
    /// store carries, when a migration is asked for: the CoreDataPlus version 2 store, with only
    /// versions 1 and 3 at hand, reaches version 3 as it does with all three. Opening alone does
    /// not start from it (the store might be of a later version of the app) and changes nothing.
    @Test(.enabled(if: CorpusStore.isAvailable, "needs ../shared/corpus"))
    func aVersionTheModelNoLongerHas_migratesFromTheModelTheStoreCarries() throws {
        let store = CorpusStore("CoreDataPlus__SampleModel_V2")
        let versions = try ModelLoader().loadVersions(store.folder.appendingPathComponent("SampleModel.xcdatamodeld").path).versions.map(\.model)
        let version3 = try #require(versions.first { $0.versionName == "SampleModel3" })
        let withoutVersion2 = ManagedObjectModel(model: version3, versions: versions.filter { $0.versionName != "SampleModel2" })
        let url = try store.copyOfStoreFile()
        // Opening turns the file to WAL mode; the store's own content stays at version 2.
        let original = try PersistentStore.metadataForStore(at: url).versionHashes
        #expect(throws: StoreError.self) { try PersistentStore(url: url, model: withoutVersion2) }
        #expect(try PersistentStore.metadataForStore(at: url).versionHashes == original)

        let plan = try #require(try PersistentStore.migrationPlan(at: url, model: withoutVersion2))
        #expect(plan.description.contains("Migration the model SampleModel_V2.sqlite carries → SampleModel3"), "\(plan.description.prefix(200))")
        let steps = try PersistentStore.migrationSteps(at: url, model: withoutVersion2)
        #expect(steps.map(\.description) == ["the model SampleModel_V2.sqlite carries → SampleModel3, lightweight"])
        #expect(try PersistentStore.migrateStore(at: url, model: withoutVersion2).count == 1)

        let reference = try store.copyOfStoreFile()
        try PersistentStore.migrateStore(at: reference, model: ManagedObjectModel(model: version3, versions: versions))
        func rows(_ url: URL) throws -> [String] {
            let context = try PersistentStore(url: url, model: withoutVersion2, migration: .disabled).newContext()
            return try ["Car", "Maker", "Person"].flatMap { entity in
                try context.fetch(FetchRequest<ManagedObject>(entityName: entity)).map { object in
                    "\(entity) " + object.entity.attributes.map { "\($0.name)=\(object.value(forKey: $0.name) ?? "nil")" }.joined(separator: " ")
                }
            }.sorted()
        }
        let migrated = try rows(url)
        #expect(migrated.count > 125)
        #expect(migrated == (try rows(reference)))
    }

    /// A store written by `Everything 1` opens with `Everything 2`: Book moves under the new
    /// abstract Item, its `name` becomes `title` (by `elementID`), Author's name becomes required
    /// with a default, entities are renumbered, and every object and link reads back.
    @Test func everything_version1Store_opensWithVersion2() throws {
        let bundle = TestStores.packageRoot.appendingPathComponent("Models/Everything.xcdatamodeld").path
        let versions = try ModelLoader().loadVersions(bundle).versions.map(\.model)
        let url = try S.store(versions[0], seed: S.everythingVersion1)
        // The generated model carries both versions: no XML is read to migrate.
        #expect(Library.Everything.model.versions.map(\.versionName) == ["Everything 1", "Everything 2"])
        let store = try PersistentStore(url: url, model: Library.Everything.model)
        #expect(try S.integrity(url) == "ok")
        let books = try S.objects(store, "Book", by: "title")
        #expect(books.map { $0.value(forKey: "title") as? String } == ["Beowulf", "Lavinia", "The Dispossessed"])
        #expect(books.map { $0.value(forKey: "pageCount") as? Int64 } == [90, 279, 387])
        #expect(books.allSatisfy { ($0.value(forKey: "published") as? Date) == Date(timeIntervalSinceReferenceDate: 1000) })
        #expect(books.map { $0.value(forKey: "author").flatMap { ($0 as? ManagedObject)?.value(forKey: "name") as? String } }
            == ["Anonymous", "Ursula K. Le Guin", "Ursula K. Le Guin"])
        #expect(S.names(books[2].value(forKey: "chapters"), key: "title") == ["The Dispossessed 3", "The Dispossessed 2", "The Dispossessed 1"])
        #expect(try S.objects(store, "Chapter", by: "title").allSatisfy { $0.value(forKey: "book") != nil })
        #expect(try S.objects(store, "Item", by: "title").count == 3, "books are items now")
        #expect(books.allSatisfy { $0.value(forKey: "pagesCount") as? Int64 == 3 }, "derived attribute computed for migrated rows")
        // New objects of the new version save next to the migrated ones.
        let context = store.newContext()
        let ebook = try context.insertObject(entityName: "Ebook")
        try ebook.setValue("Always Coming Home", forKey: "title")
        try context.save()
    }
}

