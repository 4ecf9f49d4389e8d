@testable import DataStore
import Foundation
import GRDB
import Library
import PostgreSQLStore
import TestSupport
import Testing

/// `PersistentContainer` and `PersistentStoreDescription`: Core Data's container, set up as apps
/// set it up.
@Suite struct PersistentContainerTests {
    @Test func byDefault_theStoreIsNamedAfterTheContainer_inTheDefaultDirectory() {
        let container = PersistentContainer(name: "Shelf", model: TestStores.library)
        #expect(container.persistentStoreDescriptions.count == 1)
        let description = container.persistentStoreDescriptions.first
        #expect(description?.url == PersistentContainer.defaultDirectoryURL().appendingPathComponent("Shelf.sqlite"))
        #expect(description?.type == .sqlite)
        #expect(container.persistentStore == nil)
    }

    @MainActor @Test func viewAndBackgroundContexts_shareTheStore_andTheViewFollowsBackgroundSaves() async throws {
        let folder = TestStores.newStoreURL().deletingLastPathComponent().appendingPathComponent("Nested/Folder")
        let container = PersistentContainer(name: "Shelf", model: TestStores.library)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: folder.appendingPathComponent("Shelf.sqlite"))]
        let store = try await container.loadPersistentStores()
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Shelf.sqlite").path), "its folder is made")
        #expect(try await container.loadPersistentStores() === store, "loading again keeps the store")
        #expect(container.viewContext === container.viewContext, "one view context")
        #expect(container.viewContext.isolation === MainActor.shared)

        let view = container.viewContext
        view.automaticallyMergesChangesFromParent = true
        let book = Book(context: view)
        book.title = "Emma"
        try await view.save()

        let titles = try await container.performBackgroundTask { context in
            let books = try context.fetch(FetchRequest<Book>())
            let read = books.map(\.title)
            books.first?.title = "Emma, revised"
            Book(context: context).title = "Persuasion"
            try context.save()
            return read
        }
        #expect(titles == ["Emma"], "a background context reads the view context's save")
        #expect(await AutomaticMergingTests.eventually { book.title == "Emma, revised" }, "and the view context follows its save")
        #expect(try await view.count(for: FetchRequest<Book>()) == 2)
    }

    @Test func devNull_isAStoreInMemory() throws {
        let container = PersistentContainer(name: "Scratch", model: TestStores.library)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
        #expect(container.persistentStoreDescriptions[0].type == .inMemory)
        let store = try container.loadPersistentStoresAndWait()
        #expect(store.url == nil)
        let context = store.newContext()
        Book(context: context).title = "Emma"
        try context.save()
        #expect(try store.newContext().count(for: FetchRequest<Book>()) == 1)
    }

    @Test func aReadOnlyDescription_readsTheStore_andRefusesSaves() throws {
        let url = TestStores.newStoreURL()
        do {
            let context = try PersistentStore(url: url, model: TestStores.library).newContext()
            Book(context: context).title = "Emma"
            try context.save()
        }
        var description = PersistentStoreDescription(url: url)
        description.isReadOnly = true
        let container = PersistentContainer(name: "Store", model: TestStores.library)
        container.persistentStoreDescriptions = [description]
        let context = try container.loadPersistentStoresAndWait().newContext()
        let book = try #require(try context.fetch(FetchRequest<Book>()).first)
        #expect(book.title == "Emma")
        book.title = "Changed"
        #expect(throws: SaveError.self) { try context.save() }
    }

    @Test func pragmas_runOnEveryConnection() throws {
        var description = PersistentStoreDescription(url: TestStores.newStoreURL())
        description.setValue("FULL", forPragmaNamed: "synchronous")
        description.setValue("-4000", forPragmaNamed: "cache_size")
        description.setValue(nil, forPragmaNamed: "cache_size")
        description.setValue("-2048", forPragmaNamed: "cache_size")
        #expect(description.sqlitePragmas == ["synchronous": "FULL", "cache_size": "-2048"])
        let container = PersistentContainer(name: "Store", model: TestStores.library)
        container.persistentStoreDescriptions = [description]
        let store = try container.loadPersistentStoresAndWait()
        let context = store.newContext()
        Book(context: context).title = "Emma"
        try context.save()
        func pragma(_ name: String) throws -> Int64? {
            try store.engine.read { try $0.rows("PRAGMA \(verbatim: name)", arguments: []).firstInteger }
        }
        #expect(try pragma("synchronous") == 2, "FULL")
        #expect(try pragma("cache_size") == -2048)
    }

    @Test func unsafeOrUnsupportedPragmas_areRefused() throws {
        for (name, value) in [("journal_mode", "DELETE"), ("synchronous; DROP TABLE ZBOOK", "1"), ("synchronous", "1; DROP TABLE ZBOOK")] {
            var description = PersistentStoreDescription(url: TestStores.newStoreURL())
            description.setValue(value, forPragmaNamed: name)
            let container = PersistentContainer(name: "Store", model: TestStores.library)
            container.persistentStoreDescriptions = [description]
            #expect(performing: { try container.loadPersistentStoresAndWait() }, throws: { error in
                if case StoreError.unsupportedOption(name, _) = error { true } else { false }
            })
            #expect(container.persistentStore == nil)
        }
    }

    @Test func severalDescriptions_areRefused_withoutOpeningAny() throws {
        let container = PersistentContainer(name: "Store", model: TestStores.library)
        let urls = [TestStores.newStoreURL(), TestStores.newStoreURL()]
        container.persistentStoreDescriptions = urls.map { PersistentStoreDescription(url: $0) }
        #expect(throws: StoreError.self) { try container.loadPersistentStoresAndWait() }
        #expect(urls.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) })
    }

    @Test func aPostgreSQLDescription_loadsTheServersStore() async throws {
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let container = PersistentContainer(name: "Store", model: TestStores.library)
            let description = try PersistentStoreDescription.postgreSQL(url: database)
            if let password = URLComponents(string: database)?.password {
                #expect(!description.description.contains(password), "the password is not printed")
            }
            container.persistentStoreDescriptions = [description]
            #expect(throws: StoreError.self) { try container.loadPersistentStoresAndWait() }
            let store = try await container.loadPersistentStores()
            #expect(store.tracksHistory)
            try await container.performBackgroundTask { context in
                Book(context: context).title = "Emma"
                try context.save()
            }
            #expect(try await store.newContext().fetch(FetchRequest<Book>()).map(\.title) == ["Emma"])
        }
        #expect(throws: StoreError.self) { try PersistentStoreDescription.postgreSQL(url: "/tmp/Store.sqlite") }
    }
}
