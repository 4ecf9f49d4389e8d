import DataModel
import DataModelParser
import DataStore
import Foundation
import GRDB
import Library
import StoreSchema
import Testing
import TestSupport

/// Derived attributes: the store's triggers compute them on save, the saving context shows the new
/// values at once, other contexts see them when they merge, and setting one is reported.
@Suite struct DerivedAttributeTests {
    typealias Book = Library.Book
    typealias Chapter = Library.Chapter

    // MARK: The generated Everything model: `pagesCount = chapters.@count`

    @Test func chapterCount_isComputedBySaving_andShownWithoutReading() throws {
        let store = try TestStores.newStore(TestStores.library)
        let context = store.newContext()
        let book = Book(context: context), other = Book(context: context)
        book.chapters = (1...3).map { _ in Chapter(context: context) }
        #expect(book.pagesCount == nil)  // nothing computes it before the save
        try context.save()
        #expect(book.pagesCount == 3)
        #expect(other.pagesCount == 0)
        #expect(!context.hasChanges)

        // Moving a chapter changes both counts; deleting one changes its book's.
        book.chapters[0].book = other
        try context.save()
        #expect((book.pagesCount, other.pagesCount) == (2, 1))
        context.delete(book.chapters[1])
        try context.save()
        #expect(book.pagesCount == 1)

        let fresh = store.newContext()
        let counts = try fresh.fetch(FetchRequest<Book>()).map(\.pagesCount).sorted { ($0 ?? -1) < ($1 ?? -1) }
        #expect(counts == [1, 1])
    }

    @Test func otherContexts_seeDerivedValuesWhenTheyMerge() throws {
        let store = try TestStores.newStore(TestStores.library)
        let writer = store.newContext(), reader = store.newContext()
        let book = Book(context: writer)
        try writer.save()
        let seen = try #require(reader.existingObject(with: book.objectID) as? Book)
        #expect(seen.pagesCount == 0)
        let saves = ChangeSetCollector()
        let token = store.addObserver { saves.append($0) }
        defer { store.removeObserver(token) }
        Chapter(context: writer).book = book
        try writer.save()
        // The book itself was not edited, yet its derived value is part of the save's changes.
        let changes = try #require(saves.all.last)
        #expect(changes.updated[book.objectID]?.contains("pagesCount") == true)
        reader.mergeChanges(from: changes)
        #expect(seen.pagesCount == 1)
    }

    @Test func observers_areToldOfDerivedValuesChangedBySaving() throws {
        let store = try TestStores.newStore(TestStores.library)
        let context = store.newContext()
        let book = Book(context: context)
        try context.save()
        var notifications: [ObjectsDidChange] = []
        let token = context.addObserver { notifications.append($0) }
        defer { context.removeObserver(token) }
        Chapter(context: context).book = book
        try context.save()
        #expect(notifications.contains { $0.updated.contains(book.objectID) })
        #expect(book.pagesCount == 1)
    }

    @Test func settingADerivedValue_isReported_andChangesNothing() throws {
        let store = try TestStores.newStore(TestStores.library)
        let context = store.newContext()
        let book = Book(context: context)
        try context.save()
        #expect(throws: ContextError.derivedKey(entity: "Book", key: "pagesCount")) {
            try book.setValue(Int64(7), forKey: "pagesCount")
        }
        book[Book.pagesCount] = 7
        #expect(book.pagesCount == 0)
        #expect(throws: SaveError.validation([.derivedValueSet(book.objectID, property: "pagesCount")])) {
            try context.save()
        }
    }

    // MARK: Every kind of derivation, against values computed from the rows

    static let fixture = TestStores.packageRoot.appendingPathComponent("Tests/StoreSchemaTests/Fixtures/DerivedAttributes.xcdatamodel")

    static func fixtureModel() throws -> ManagedObjectModel {
        let loaded = try ModelLoader().load(fixture.path)
        try #require(!loaded.diagnostics.containsErrors)
        return ManagedObjectModel(model: loaded.model)
    }

    /// Random edits saved round after round; after each save every derived column equals the value
    /// computed from the rows in Swift, and every object in the saving context and in a merging
    /// context shows the column's value. `DATASTORE_DERIVED_ROUNDS` sets the number of rounds.
    @Test func randomEdits_keepEveryDerivedValueEqualToItsDefinition() throws {
        let rounds = Int(ProcessInfo.processInfo.environment["DATASTORE_DERIVED_ROUNDS"] ?? "") ?? 200
        let seed = UInt64(ProcessInfo.processInfo.environment["DATASTORE_DERIVED_SEED"] ?? "") ?? 0xD3_41_7E
        var random = SplitMix64(seed: seed)
        let url = TestStores.newStoreURL()
        let store = try PersistentStore(url: url, model: try Self.fixtureModel())
        let context = store.newContext(), merging = store.newContext()
        let saves = ChangeSetCollector()
        let token = store.addObserver { saves.append($0) }
        defer { store.removeObserver(token) }
        let rows = try DatabaseQueue(path: url.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        var edits = RandomLibraryEdits(context: context)

        for round in 0..<rounds {
            for _ in 0..<Int.random(in: 1...6, using: &random) { try edits.apply(using: &random) }
            let versionsBefore = try rows.read(Self.publicationVersions)
            let saveStart = Date().timeIntervalSinceReferenceDate
            try context.save()
            saves.all.forEach(merging.mergeChanges)
            saves.removeAll()
            let expected = try rows.read(ExpectedDerivedValues.init)
            let stored = try rows.read(StoredDerivedValues.init)
            try #require(stored.values == expected.values, "round \(round), seed \(seed)")
            // `now()`: exactly the rows this save inserted or updated carry its time.
            let versionsAfter = try rows.read(Self.publicationVersions)
            let saved = Set(versionsAfter.filter { versionsBefore[$0.key] != $0.value }.keys)
            let stamped = Set(stored.updatedAt.filter { $0.value >= saveStart }.keys)
            try #require(saved == stamped && stored.updatedAt.count == versionsAfter.count, "round \(round), seed \(seed)")

            for object in edits.objects where !object.isDeleted {
                try #require(StoredDerivedValues.row(object, in: stored) == StoredDerivedValues.memory(object), "round \(round), \(object.objectID)")
                if let copy = merging.registeredObject(for: object.objectID), !copy.isFault {
                    try #require(StoredDerivedValues.memory(copy) == StoredDerivedValues.memory(object), "round \(round), merged \(object.objectID)")
                } else {
                    _ = try merging.existingObject(with: object.objectID)  // loads it, for the next rounds' merges
                }
            }
        }
    }

    static func publicationVersions(_ db: Database) throws -> [Int64: Int64] {
        Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT Z_PK, Z_OPT FROM ZPUBLICATION").map { ($0[0], $0[1]) })
    }

    // MARK: A store without triggers gains them

    @Test func storeWithoutTriggers_getsThemAndCorrectValuesWhenOpened() throws {
        let url = TestStores.newStoreURL()
        let model = try Self.fixtureModel()
        var shelfID: ObjectID?
        do {
            let store = try PersistentStore(url: url, model: model)
            let context = store.newContext()
            let shelf = try context.insertObject(entityName: "Shelf")
            try shelf.setValue("Attic", forKey: "name")
            for pages in [100, 250] {
                let book = try context.insertObject(entityName: "Book")
                try book.setValue(Int64(pages), forKey: "pages")
                try book.setValue(shelf, forKey: "shelf")
            }
            try context.save()
            shelfID = shelf.objectID
        }
        // As an earlier release left it: no triggers, and values nobody computed.
        let raw = try DatabaseQueue(path: url.path)
        try raw.write { db in
            for name in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger'") {
                try db.execute(sql: "DROP TRIGGER \(name)")
            }
            try db.execute(sql: "UPDATE ZSHELF SET ZBOOKCOUNT = NULL, ZTOTALPAGES = 7, ZLOWERNAME = NULL")
        }
        try raw.close()

        let store = try PersistentStore(url: url, model: model)
        let shelf = try store.newContext().existingObject(with: try #require(shelfID))
        #expect(shelf.value(forKey: "bookCount") as? Int64 == 2)
        #expect(shelf.value(forKey: "totalPages") as? Int64 == 350)
        #expect(shelf.value(forKey: "lowerName") as? String == "attic")
        let reopened = try DatabaseQueue(path: url.path)
        let count = try reopened.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'") }
        #expect(count == StoreSchema(model: model.model).derivedAttributes.flatMap(\.triggers).count)
    }
}
