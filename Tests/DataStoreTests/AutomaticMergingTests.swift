import DataStore
import Foundation
import Library
import Testing

/// `automaticallyMergesChangesFromParent`: a context follows the saves of other contexts and
/// processes by itself, on its own isolation, and its results controllers with it.
@Suite struct AutomaticMergingTests {
    /// Waits up to five seconds for `condition`, letting the main actor run the merges.
    @MainActor static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @MainActor @Test func aViewContext_followsBackgroundSaves_withItsResultsController() async throws {
        let store = try TestStores.newStore(TestStores.library)
        let view = store.newContext()
        view.automaticallyMergesChangesFromParent = true
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor(Book.price)]), context: view)
        // A controller follows its context's changes while it has a delegate, as Core Data's does.
        let delegate = RecordingDelegate<Book>()
        controller.delegate = delegate
        try await controller.performFetch()

        let background = store.newBackgroundContext()
        try await background.perform { context in
            for (title, price) in [("Emma", Decimal(9)), ("Persuasion", Decimal(12))] {
                let book = Book(context: context)
                (book.title, book.price) = (title, price)
            }
            try context.save()
        }
        #expect(await Self.eventually { controller.fetchedObjects?.map(\.title) == ["Emma", "Persuasion"] })

        let emma = try #require(controller.fetchedObjects?.first)
        try await background.perform { context in
            let books = try context.fetch(FetchRequest<Book>(predicate: try ObjectPredicate(format: "title == 'Emma'")))
            books.first?.price = 40
            try context.save()
        }
        #expect(await Self.eventually { emma.price == 40 }, "the object shows the saved value")
        #expect(await Self.eventually { controller.fetchedObjects?.map(\.title) == ["Persuasion", "Emma"] }, "and the list its new place")

        // Its own saves are not merged again; unsaved changes stay on top of others' saves.
        emma.title = "Emma (unsaved)"
        try await background.perform { context in
            let book = try context.fetch(FetchRequest<Book>(predicate: try ObjectPredicate(format: "title == 'Persuasion'"))).first
            book?.price = 5
            try context.save()
        }
        #expect(await Self.eventually { controller.fetchedObjects?.map(\.title) == ["Persuasion", "Emma (unsaved)"] })

        view.automaticallyMergesChangesFromParent = false
        try await background.perform { context in
            let book = Book(context: context)
            (book.title, book.price) = ("Beloved", 1)
            try context.save()
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(controller.fetchedObjects?.count == 2, "no longer following")
    }

    /// A context made outside any actor merges where the other context saves; another process's
    /// saves arrive as the store learns of them.
    @Test func aContextOfNoActor_followsSavesAndOtherProcesses() throws {
        let url = TestStores.newStoreURL()
        let store = try PersistentStore(url: url, model: TestStores.library, history: .enabled)
        let reader = store.newContext(isolation: nil)
        reader.automaticallyMergesChangesFromParent = true
        let writer = store.newContext(isolation: nil)
        let book = Book(context: writer)
        (book.title, book.price) = ("Emma", 9)
        try writer.save()
        let read = try #require(try reader.fetch(FetchRequest<Book>()).first)
        book.price = 11
        try writer.save()
        #expect(read.price == 11, "merged during the save")

        let otherProcess = try PersistentStore(url: url, model: TestStores.library, history: .enabled)
        let elsewhere = otherProcess.newContext(isolation: nil)
        try #require(try elsewhere.fetch(FetchRequest<Book>()).first).price = 13
        try elsewhere.save()
        #expect(try store.checkForExternalChanges())
        #expect(read.price == 13)
    }
}
