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

    @Test(arguments: TestedEngine.available) func chapterCount_isComputedBySaving_andShownWithoutReading(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
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
    }

    @Test(arguments: TestedEngine.available) func otherContexts_seeDerivedValuesWhenTheyMerge(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
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
    }

    @Test(arguments: TestedEngine.available) func observers_areToldOfDerivedValuesChangedBySaving(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
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
    }

    @Test(arguments: TestedEngine.available) func settingADerivedValue_isReported_andChangesNothing(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
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
    /// context shows the column's value. `DATASTORE_DERIVED_ROUNDS` sets the number of rounds (on
    /// PostgreSQL a tenth of 200 without it).
    @Test(arguments: TestedEngine.available) func randomEdits_keepEveryDerivedValueEqualToItsDefinition(_ engine: TestedEngine) async throws {
        let rounds = engine.share(of: Int(ProcessInfo.processInfo.environment["DATASTORE_DERIVED_ROUNDS"] ?? "") ?? 200, fullCountIn: "DATASTORE_DERIVED_ROUNDS")
        let seed = UInt64(ProcessInfo.processInfo.environment["DATASTORE_DERIVED_SEED"] ?? "") ?? 0xD3_41_7E
        try await TestStores.withNewStore(try Self.fixtureModel(), on: engine) { store in
            var random = SplitMix64(seed: seed)
            let context = store.newContext(), merging = store.newContext()
            let saves = ChangeSetCollector()
            let token = store.addObserver { saves.append($0) }
            defer { store.removeObserver(token) }
            let rows = { (sql: String) in try TestStores.rows(sql, in: store) }
            var edits = RandomLibraryEdits(context: context)

            for round in 0..<rounds {
                for _ in 0..<Int.random(in: 1...6, using: &random) { try edits.apply(using: &random) }
                let versionsBefore = try Self.publicationVersions(rows)
                let saveStart = Date().timeIntervalSinceReferenceDate
                try context.save()
                saves.all.forEach(merging.mergeChanges)
                saves.removeAll()
                let expected = try ExpectedDerivedValues(rows)
                let stored = try StoredDerivedValues(rows)
                try #require(stored.values == expected.values, "round \(round), seed \(seed)")
                // `now()`: exactly the rows this save inserted or updated carry its time.
                let versionsAfter = try Self.publicationVersions(rows)
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
    }

    static func publicationVersions(_ rows: (String) throws -> [[String]]) throws -> [Int64: String] {
        Dictionary(uniqueKeysWithValues: try rows(#"SELECT "Z_PK", "Z_OPT" FROM "ZPUBLICATION""#).map { (Int64($0[0]) ?? -1, $0[1]) })
    }

    /// Batch requests write rows without objects; the values derived from those rows follow, and
    /// the context that ran the request shows them. A request's result lists the objects it
    /// wrote, not those whose derived values followed.
    @Test(arguments: TestedEngine.available) func batchRequests_keepDerivedValuesCurrent(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(try Self.fixtureModel(), on: engine) { store in
            let context = store.newContext()
            let shelf = try context.insertObject(entityName: "Shelf"), tag = try context.insertObject(entityName: "Tag")
            var books: [ManagedObject] = []
            for pages in [100, 200, 300] {
                let book = try context.insertObject(entityName: "Book")
                try book.setValue(Int64(pages), forKey: "pages")
                try book.setValue(shelf, forKey: "shelf")
                try book.setValue(Set([tag]), forKey: "tags")
                books.append(book)
            }
            try context.save()
            let rows = { (sql: String) in try TestStores.rows(sql, in: store) }
            func expectCurrent(_ step: String) throws {
                let stored = try StoredDerivedValues(rows)
                #expect(stored.values == (try ExpectedDerivedValues(rows)).values, "\(step)")
                #expect(StoredDerivedValues.row(shelf, in: stored)?["totalPages"] == StoredDerivedValues.memory(shelf)["totalPages"], "\(step): the context shows it")
            }

            let inserted = try context.execute(BatchInsertRequest<ManagedObject>(entityName: "Book", objects: [["title": "Émile", "pages": Int64(5)]]))
            try expectCurrent("insert")
            #expect(try rows(#"SELECT "ZSEARCHTITLE" FROM "ZPUBLICATION" WHERE "Z_PK" = \#(inserted.objectIDs[0].primaryKey ?? 0)"#) == [["emile"]])

            var double = BatchUpdateRequest<ManagedObject>(entityName: "Book", predicate: try ObjectPredicate(format: "pages > 150"))
            double.propertiesToUpdate = ["pages": .expression(try ObjectExpression(format: "pages * 2"))]
            #expect(try context.execute(double).objectIDs == [books[1].objectID, books[2].objectID])
            try expectCurrent("update")
            #expect(shelf.value(forKey: "totalPages") as? Int64 == Int64(100 + 400 + 600))

            try context.execute(BatchDeleteRequest(objectIDs: [books[2].objectID]))
            try expectCurrent("delete")
            #expect(shelf.value(forKey: "bookCount") as? Int64 == 2)
            #expect(tag.value(forKey: "bookCount") as? Int64 == 2)

            // Magazines have no relationship of their own (the shelf's has no inverse): a delete
            // by predicate removes their rows in one statement, and the shelf's count follows.
            let magazine = try context.insertObject(entityName: "Magazine")
            try shelf.setValue(Set([magazine]), forKey: "magazines")
            try context.save()
            #expect(shelf.value(forKey: "magazineCount") as? Int64 == 1)
            try context.execute(BatchDeleteRequest(FetchRequest<ManagedObject>(entityName: "Magazine", predicate: try ObjectPredicate(format: "issue == 0"))))
            try expectCurrent("delete by predicate")
            #expect(shelf.value(forKey: "magazineCount") as? Int64 == 0)
        }
    }

    /// A line copies its product's price; an order sums its lines' prices: changing a product
    /// changes the lines, which changes the orders, as one trigger fires the next on SQLite.
    static let chainedModel = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" sourceLanguage="Swift">
            <entity name="Product" syncable="YES">
                <attribute name="price" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                <relationship name="lines" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Line" inverseName="product" inverseEntity="Line"/>
            </entity>
            <entity name="Line" syncable="YES">
                <attribute name="price" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="product.price" usesScalarValueType="YES"/>
                <relationship name="order" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Order" inverseName="lines" inverseEntity="Order"/>
                <relationship name="product" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Product" inverseName="lines" inverseEntity="Product"/>
            </entity>
            <entity name="Order" syncable="YES">
                <attribute name="total" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="lines.price.@sum" usesScalarValueType="YES"/>
                <relationship name="lines" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Line" inverseName="order" inverseEntity="Line"/>
            </entity>
        </model>
        """

    @Test(arguments: TestedEngine.available) func derivedValuesReadingDerivedValues_followInTurn(_ engine: TestedEngine) async throws {
        let directory = TestStores.newStoreURL("Chained").deletingPathExtension().appendingPathExtension("xcdatamodel")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.chainedModel.write(to: directory.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let loaded = try ModelLoader().load(directory.path)
        try #require(!loaded.diagnostics.containsErrors)
        try await TestStores.withNewStore(ManagedObjectModel(model: loaded.model), on: engine) { store in
            let context = store.newContext()
            let order = try context.insertObject(entityName: "Order")
            var products: [ManagedObject] = []
            for price in [10, 20] {
                let product = try context.insertObject(entityName: "Product"), line = try context.insertObject(entityName: "Line")
                try product.setValue(Int64(price), forKey: "price")
                try line.setValue(product, forKey: "product")
                try line.setValue(order, forKey: "order")
                products.append(product)
            }
            try context.save()
            #expect(order.value(forKey: "total") as? Int64 == 30)
            try products[0].setValue(Int64(15), forKey: "price")
            try context.save()
            #expect(order.value(forKey: "total") as? Int64 == 35, "the product changed the line, the line the order")
            #expect(try TestStores.rows(#"SELECT "ZTOTAL" FROM "ZORDER""#, in: store) == [["35"]])
        }
    }

    /// Two processes change the pages of their own books on one shelf at the same time: neither
    /// save changes the shelf, yet each computes its total again, and the last to commit counts the
    /// other's pages — as a server store locks the shelf before it sums.
    @Test func concurrentSaves_sumEachOthersRows() async throws {
        guard TestedEngine.available.contains(.postgreSQL) else { return }
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let model = try Self.fixtureModel()
            let stores = [try await PersistentStore(postgreSQL: database, model: model), try await PersistentStore(postgreSQL: database, model: model)]
            let setup = stores[0].newContext()
            let shelf = try setup.insertObject(entityName: "Shelf")
            let books = try (0..<2).map { _ in try setup.insertObject(entityName: "Book") }
            for book in books { try book.setValue(shelf, forKey: "shelf") }
            try await setup.save()
            let saves = 25, bookIDs = books.map(\.objectID)
            let failures = Collector<String>()
            // Each process on a thread of its own: the synchronous API waits for the server, and
            // must not hold the threads of Swift's cooperative pool meanwhile.
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                let group = DispatchGroup()
                for (index, store) in stores.enumerated() {
                    group.enter()
                    Thread.detachNewThread {
                        defer { group.leave() }
                        let context = store.newContext()
                        do {
                            let book = try context.existingObject(with: bookIDs[index])
                            for pages in 1...saves {
                                try book.setValue(Int64(pages * (index + 1)), forKey: "pages")
                                try context.save()
                            }
                        } catch {
                            failures.append("\(error)")
                        }
                    }
                }
                group.notify(queue: .global()) { done.resume() }
            }
            #expect(failures.all.isEmpty)
            let total = try TestStores.$serverDatabase.withValue(database) { try TestStores.rows(#"SELECT "ZTOTALPAGES" FROM "ZSHELF""#, in: stores[0]) }
            #expect(total == [["\(saves + saves * 2)"]])
        }
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
