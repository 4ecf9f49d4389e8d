@testable import DataStore
import DataModel
import Foundation
import Library
import PostgreSQLStore
import TestSupport
import Testing

/// Configurations: several stores in one coordinator, each holding the objects of the entities its
/// configuration names, as Core Data's `NSPersistentStoreCoordinator` spreads them.
@Suite struct ConfigurationTests {
    /// The library model with two configurations: the catalog, and the readers apart.
    static let model: ManagedObjectModel = {
        var model = TestStores.library.model
        model.configurations = [
            Configuration("Catalog", entities: ["Item", "Book", "Audiobook", "Ebook", "Author", "Chapter", "Shelf", "Tag"]),
            Configuration("Readers", entities: ["Reader"]),
        ]
        return ManagedObjectModel(model: model, classes: TestStores.library.classes)
    }()

    /// Runs `body` with two new stores of the model on `engine` — two files, or two databases —
    /// in a coordinator: the readers' store first, then the catalog's.
    static func withConfiguredStores(
        on engine: TestedEngine, _ body: (PersistentStoreCoordinator, _ readers: PersistentStore, _ catalog: PersistentStore) throws -> Void
    ) async throws {
        func run(_ readers: PersistentStore, _ catalog: PersistentStore) throws {
            let coordinator = try PersistentStoreCoordinator([(readers, "Readers"), (catalog, "Catalog")])
            try body(coordinator, readers, catalog)
        }
        switch engine {
        case .sqlite:
            try run(PersistentStore(url: TestStores.newStoreURL("Readers"), model: model), PersistentStore(url: TestStores.newStoreURL("Catalog"), model: model))
        case .postgreSQL:
            try await PostgreSQLTestServer.withEmptyDatabases(2) { databases in
                try run(
                    await PersistentStore(postgreSQL: databases[0], model: model, history: .automatic),
                    await PersistentStore(postgreSQL: databases[1], model: model, history: .automatic))
            }
        }
    }

    /// How many objects of `entity` a context on `store` alone finds there.
    static func count(of entity: String, in store: PersistentStore) throws -> Int {
        try store.newContext().count(for: FetchRequest<ManagedObject>(entityName: entity))
    }

    @Test(arguments: TestedEngine.available)
    func eachObject_isSavedInTheStoreOfItsConfiguration_andFetchedFromIt(_ engine: TestedEngine) async throws {
        try await Self.withConfiguredStores(on: engine) { coordinator, readers, catalog in
            let context = coordinator.newContext()
            let author = Author(context: context)
            author.name = "Jane Austen"
            let book = Book(context: context)
            book.title = "Emma"
            book.author = author
            Chapter(context: context).book = book
            Chapter(context: context).book = book
            let reader = Reader(context: context)
            reader.name = "Anne"
            #expect(book.objectID.storeIdentifier == catalog.identifier, "an insert goes to the store its entity's configuration names")
            #expect(reader.objectID.storeIdentifier == readers.identifier)
            try context.save()
            #expect(!book.objectID.isTemporaryID && !reader.objectID.isTemporaryID)
            #expect(book.objectID.storeIdentifier == catalog.identifier && reader.objectID.storeIdentifier == readers.identifier)
            #expect(book.pagesCount == 2, "a derived value the catalog's store computed reaches its object")

            // Each store holds its objects, and only those: every store has the whole model's tables.
            #expect(try Self.count(of: "Book", in: catalog) == 1)
            #expect(try Self.count(of: "Author", in: catalog) == 1)
            #expect(try Self.count(of: "Reader", in: catalog) == 0)
            #expect(try Self.count(of: "Reader", in: readers) == 1)
            #expect(try Self.count(of: "Book", in: readers) == 0)
            #expect(try catalog.newContext().fetch(FetchRequest<Book>()).map(\.title) == ["Emma"])
            #expect(try readers.newContext().fetch(FetchRequest<Reader>()).map(\.name) == ["Anne"])

            // A new context of the coordinator reads each entity from its store.
            let other = coordinator.newContext()
            let books = try other.fetch(FetchRequest<Book>())
            #expect(books.map(\.title) == ["Emma"])
            #expect(books.first?.author?.name == "Jane Austen", "a relationship within a store faults in from it")
            #expect(books.first?.objectID == book.objectID)
            let fetchedReaders = try other.fetch(FetchRequest<Reader>(predicate: try ObjectPredicate(format: "name == %@", "Anne")))
            #expect(fetchedReaders.map(\.objectID) == [reader.objectID])
            #expect(try other.count(for: FetchRequest<Author>()) == 1)
            var names = FetchRequest<Reader>()
            names.propertiesToFetch = [.key("name")]
            #expect(try other.fetchDictionaries(names) == [["name": .attribute(.string("Anne"))]])

            // URIs name their store, and the coordinator finds the store of each.
            #expect(coordinator.managedObjectID(forURIRepresentation: reader.objectID.uriRepresentation) == reader.objectID)
            #expect(coordinator.managedObjectID(forURIRepresentation: book.objectID.uriRepresentation) == book.objectID)
            #expect(try (other.existingObject(with: reader.objectID) as? Reader)?.name == "Anne")
            let decoder = JSONDecoder()
            decoder.userInfo[.persistentStore] = coordinator
            let decoded = try decoder.decode([ObjectID].self, from: JSONEncoder().encode([reader.objectID, book.objectID]))
            #expect(decoded == [reader.objectID, book.objectID], "a coordinator decodes the IDs of each of its stores")
            #expect(coordinator.persistentStore(forEntityNamed: "Ebook") === catalog, "a subentity lives with its tree")
            #expect(coordinator.configurationName(of: readers) == "Readers")

            // Changes and deletes go to the store that holds the object, in one save (the catalog's
            // part alone too).
            books.first?.title = "Emma"
            try other.save()
            Chapter(context: other).book = books.first
            try other.save()
            #expect(books.first?.pagesCount == 3)
            fetchedReaders.first?.name = "Anne Elliot"
            books.first?.title = "Emma, revised"
            try other.save()
            #expect(try readers.newContext().fetch(FetchRequest<Reader>()).map(\.name) == ["Anne Elliot"])
            #expect(try catalog.newContext().fetch(FetchRequest<Book>()).map(\.title) == ["Emma, revised"])
            other.delete(fetchedReaders[0])
            try other.save()
            #expect(try Self.count(of: "Reader", in: readers) == 0)
            #expect(try Self.count(of: "Book", in: catalog) == 1)
        }
    }

    @Test(arguments: TestedEngine.available)
    func aRelationshipBetweenObjectsOfTwoStores_failsTheSave_writingNothing(_ engine: TestedEngine) async throws {
        try await Self.withConfiguredStores(on: engine) { coordinator, readers, catalog in
            let context = coordinator.newContext()
            let book = Book(context: context)
            book.title = "Persuasion"
            let reader = Reader(context: context)
            reader.name = "Anne"
            book.recommendedBy = [reader]
            #expect {
                try context.save()
            } throws: { error in
                guard case .validation(let failures) = error as? SaveError, case .crossStoreRelationship(let id, "recommendedBy", let destination) = failures.first
                else { return false }
                return id == book.objectID && destination == reader.objectID
            }
            #expect(try Self.count(of: "Book", in: catalog) == 0)
            #expect(try Self.count(of: "Reader", in: readers) == 0)
            // Undone, the save goes through.
            book.recommendedBy = []
            try context.save()
            #expect(try Self.count(of: "Book", in: catalog) == 1 && Self.count(of: "Reader", in: readers) == 1)
        }
    }

    @Test(arguments: TestedEngine.available)
    func aConflictInOneStore_rollsBackTheOtherStoresPart(_ engine: TestedEngine) async throws {
        try await Self.withConfiguredStores(on: engine) { coordinator, readers, catalog in
            let first = coordinator.newContext()
            let book = Book(context: first)
            book.title = "Emma"
            try first.save()
            // Another writer changes the book after this context read it.
            let other = coordinator.newContext()
            try other.fetch(FetchRequest<Book>()).first?.title = "Emma (theirs)"
            try other.save()

            book.title = "Emma (mine)"
            Reader(context: first).name = "Anne"
            #expect {
                try first.save()
            } throws: { error in
                guard case .conflicts(let conflicts) = error as? SaveError else { return false }
                return conflicts.map(\.objectID) == [book.objectID]
            }
            // The readers' store's transaction held the catalog's, which failed: no reader was written.
            #expect(try Self.count(of: "Reader", in: readers) == 0)
            #expect(try catalog.newContext().fetch(FetchRequest<Book>()).map(\.title) == ["Emma (theirs)"])
            // Settled by a merge policy, both parts are written.
            first.mergePolicy = .mergeByPropertyObjectTrump
            try first.save()
            #expect(try readers.newContext().fetch(FetchRequest<Reader>()).map(\.name) == ["Anne"])
            #expect(try catalog.newContext().fetch(FetchRequest<Book>()).map(\.title) == ["Emma (mine)"])
        }
    }

    @Test(arguments: TestedEngine.available)
    func anIDOfAStoreThatDoesNotHoldItsEntity_namesNoObject(_ engine: TestedEngine) async throws {
        try await Self.withConfiguredStores(on: engine) { coordinator, readers, catalog in
            let context = coordinator.newContext()
            let book = Book(context: context)
            book.title = "Emma"
            try context.save()
            let key = try #require(book.objectID.primaryKey)
            // The same entity and key, in the readers' store, which holds no books.
            let stray = try #require(readers.managedObjectID(forURIRepresentation: URL(string: "x-coredata://\(readers.identifier)/Book/p\(key)")!))
            #expect(stray != book.objectID)
            let reading = coordinator.newContext()
            #expect(throws: ContextError.objectNotFound(stray)) { try reading.existingObject(with: stray) }
            #expect(try (reading.existingObject(with: book.objectID) as? Book)?.title == "Emma")
            #expect(reading.object(with: stray) !== reading.object(with: book.objectID), "one object per store's row")
        }
    }

    @Test(arguments: TestedEngine.available)
    func batchRequestsAndPermanentIDs_goToTheStoreOfTheirEntity(_ engine: TestedEngine) async throws {
        try await Self.withConfiguredStores(on: engine) { coordinator, readers, catalog in
            let context = coordinator.newContext()
            let inserted = try context.execute(BatchInsertRequest<Reader>(objects: [["name": "Anne"], ["name": "Fanny"]]))
            #expect(inserted.objectIDs.allSatisfy { $0.storeIdentifier == readers.identifier })
            #expect(try Self.count(of: "Reader", in: readers) == 2 && Self.count(of: "Reader", in: catalog) == 0)
            var update = BatchUpdateRequest<Reader>(predicate: try ObjectPredicate(format: "name == 'Fanny'"))
            update.propertiesToUpdate = ["name": .value(.string("Fanny Price"))]
            try context.execute(update)
            #expect(try readers.newContext().fetch(FetchRequest<Reader>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("name")])).map(\.name) == ["Anne", "Fanny Price"])
            try context.execute(BatchDeleteRequest(FetchRequest<Reader>(predicate: try ObjectPredicate(format: "name == 'Anne'"))))
            #expect(try Self.count(of: "Reader", in: readers) == 1)

            let book = Book(context: context)
            let reader = Reader(context: context)
            try context.obtainPermanentIDs(for: [book, reader])
            #expect(book.objectID.storeIdentifier == catalog.identifier && reader.objectID.storeIdentifier == readers.identifier)
            #expect(!book.objectID.isTemporaryID && !reader.objectID.isTemporaryID)
            try context.save()
            #expect(try Self.count(of: "Book", in: catalog) == 1 && Self.count(of: "Reader", in: readers) == 2)
        }
    }

    @Test func storesThatCannotBeOneCoordinators_areRefused_withTheReason() throws {
        let readers = try PersistentStore.inMemory(model: Self.model)
        let catalog = try PersistentStore.inMemory(model: Self.model)
        func reason(_ stores: [(store: PersistentStore, configuration: String?)]) -> String? {
            do {
                _ = try PersistentStoreCoordinator(stores)
                return nil
            } catch {
                guard case .invalidConfiguration(let reason) = error else { return "\(error)" }
                return reason
            }
        }
        #expect(reason([(readers, "Shelves")])?.contains("no configuration 'Shelves' (it has Catalog, Readers)") == true)
        #expect(reason([(readers, "Readers"), (catalog, nil)])?.contains("entity Reader (of Reader's inheritance tree) would be held by two stores") == true)
        #expect(reason([(readers, "Readers"), (catalog, "Default")])?.contains("held by two stores, configurations Readers and Default") == true)
        #expect(reason([(readers, "Readers"), (readers, "Catalog")])?.contains("is given twice") == true)
        #expect(reason([(readers, "Readers"), (try PersistentStore.inMemory(model: TestStores.library), "Catalog")])?.contains("another model") == true)
        #expect(reason([]) == "a coordinator needs a store")

        // An entity no loaded store holds cannot be inserted or fetched.
        let context = try PersistentStoreCoordinator([(readers, "Readers")]).newContext()
        #expect(throws: ContextError.noStore(entity: "Book")) { try context.insertObject(entityName: "Book") }
        #expect(throws: ContextError.noStore(entity: "Book")) { try context.fetch(FetchRequest<Book>()) }
        #expect(throws: ContextError.unknownEntity("Novel")) { try context.fetch(FetchRequest<ManagedObject>(entityName: "Novel")) }
        #expect(try context.insertObject(entityName: "Reader").objectID.storeIdentifier == readers.identifier)

        // One store alone: a batch request of an entity the model lacks is refused, as before.
        let alone = readers.newContext()
        #expect(throws: BatchError.invalidRequest(.unknownEntity("Novel"))) {
            try alone.execute(BatchDeleteRequest(FetchRequest<ManagedObject>(entityName: "Novel")))
        }
        #expect(throws: BatchError.invalidRequest(.unknownEntity("Novel"))) {
            try alone.execute(BatchUpdateRequest<ManagedObject>(entityName: "Novel"))
        }
        #expect(throws: BatchError.invalidRequest(.unknownEntity("Novel"))) {
            try alone.execute(BatchInsertRequest<ManagedObject>(entityName: "Novel", objects: [[:]]))
        }
    }

    @Test func aFetchInAPredicate_readsItsOwnStoreOnly() async throws {
        try await Self.withConfiguredStores(on: .sqlite) { coordinator, _, _ in
            let context = coordinator.newContext()
            let readers = try FetchRequestExpression(FetchRequest<Reader>())
            #expect {
                try context.fetch(FetchRequest<Book>(predicate: try ObjectPredicate(format: "ANY recommendedBy IN %@", readers)))
            } throws: { error in
                "\(error)".contains("the fetch reads entity Reader, which another store than the fetched entity's holds")
            }
        }
    }

    @MainActor @Test func aContainer_loadsADescriptionPerConfiguration_andItsViewContextFollowsBothStores() async throws {
        let folder = TestStores.newStoreURL().deletingLastPathComponent()
        let container = PersistentContainer(name: "Library", model: Self.model)
        var catalog = PersistentStoreDescription(url: folder.appendingPathComponent("Catalog.sqlite"))
        catalog.configuration = "Catalog"
        var readers = PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))
        readers.configuration = "Readers"
        container.persistentStoreDescriptions = [catalog, readers]
        try await container.loadPersistentStores()
        let coordinator = try #require(container.persistentStoreCoordinator)
        #expect(coordinator.persistentStores.count == 2)
        #expect(coordinator.persistentStores[0].url?.lastPathComponent == "Catalog.sqlite" && coordinator.persistentStores[1].url == nil)
        #expect(container.persistentStore === coordinator.persistentStores[0])

        let view = container.viewContext
        view.automaticallyMergesChangesFromParent = true
        let controller = FetchedResultsController(fetchRequest: FetchRequest<Reader>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("name")]), context: view)
        let delegate = RecordingDelegate<Reader>()
        controller.delegate = delegate
        try await controller.performFetch()
        try await container.performBackgroundTask { context in
            Reader(context: context).name = "Anne"
            Book(context: context).title = "Persuasion"
            try context.save()
        }
        #expect(await AutomaticMergingTests.eventually { controller.fetchedObjects?.map(\.name) == ["Anne"] }, "the view's results controller follows the readers' store")
        #expect(try await view.fetch(FetchRequest<Book>()).map(\.title) == ["Persuasion"])
        #expect(try Self.count(of: "Book", in: coordinator.persistentStores[0]) == 1)
        #expect(try Self.count(of: "Reader", in: coordinator.persistentStores[0]) == 0)

        // An asynchronous save across both stores.
        Reader(context: view).name = "Fanny"
        let book = Book(context: view)
        book.title = "Mansfield Park"
        try await view.save()
        #expect(!book.objectID.isTemporaryID && book.objectID.storeIdentifier == coordinator.persistentStores[0].identifier)
        #expect(try Self.count(of: "Reader", in: coordinator.persistentStores[1]) == 2)
        #expect(try Self.count(of: "Book", in: coordinator.persistentStores[0]) == 2)
    }
}
