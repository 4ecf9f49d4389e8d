import DataStore
import Foundation
import Library
import Testing

/// Child contexts on another isolation than their parent's, as Core Data apps arrange them.
@Suite struct ChildIsolationTests {
    static func titles(_ context: ObjectContext) throws -> [String] {
        try context.fetch(FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor(Book.title)])).map(\.title)
    }

    /// A private-queue child of the main actor's context: it reads the parent's unsaved changes and
    /// saves into it on the main actor; the parent's results controller hears of the save, and the
    /// parent's save gives the child's objects their permanent IDs.
    @MainActor @Test func aBackgroundChildOfTheViewContext() async throws {
        let store = try TestStores.newStore(TestStores.library)
        let view = store.newContext()
        let emma = Book(context: view)
        emma.title = "Emma"
        try await view.save()
        let unsaved = Book(context: view)
        unsaved.title = "Persuasion"

        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor(Book.title)]), context: view)
        let delegate = RecordingDelegate<Book>()
        controller.delegate = delegate
        try await controller.performFetch()

        let child = view.newBackgroundChildContext()
        let (seen, insertedID) = try await child.perform { context in
            let seen = try Self.titles(context)
            let book = try #require(try context.fetch(FetchRequest<Book>(predicate: Book.title == "Emma")).first)
            book.pageCount = 474
            let added = Book(context: context)
            added.title = "Middlemarch"
            try context.save()
            return (seen, added.objectID)
        }
        #expect(seen == ["Emma", "Persuasion"], "the child sees the parent's unsaved insert")
        #expect(emma.pageCount == 474 && view.hasChanges, "the child's save is a change of the parent")
        #expect(controller.fetchedObjects?.map(\.title) == ["Emma", "Middlemarch", "Persuasion"])
        #expect(insertedID.isTemporaryID)

        try await view.save()
        #expect(try Self.titles(store.newContext()) == ["Emma", "Middlemarch", "Persuasion"])
        let permanent = try await child.perform { context in
            try context.existingObject(with: insertedID).objectID.isTemporaryID == false
        }
        #expect(permanent, "the child's object has its permanent ID after the parent's save")

        // performAndWait from the main actor: the child reads the parent on the same thread.
        let count = try child.performAndWait { context in try context.count(for: FetchRequest<Book>()) }
        #expect(count == 3)
    }

    /// A main-actor child of a private-queue root context, as apps that save from a background
    /// context arrange them: the child saves into the root on its queue, the root writes the store.
    @MainActor @Test func aViewContextChildOfABackgroundRoot() async throws {
        let store = try TestStores.newStore(TestStores.library)
        let writer = store.newBackgroundContext()
        try await writer.perform { context in
            Book(context: context).title = "Emma"
            try context.save()
            Book(context: context).title = "Unsaved in the writer"
        }
        let view = ObjectContext(parent: writer)
        #expect(try Self.titles(view) == ["Emma", "Unsaved in the writer"])
        let book = Book(context: view)
        book.title = "Beloved"
        try await view.save()
        #expect(!view.hasChanges)
        let writerTitles = try await writer.perform { context in
            try context.save()
            return try Self.titles(context)
        }
        #expect(writerTitles == ["Beloved", "Emma", "Unsaved in the writer"])
        #expect(try Self.titles(store.newContext()) == ["Beloved", "Emma", "Unsaved in the writer"])
        #expect(await AutomaticMergingTests.eventually { !book.objectID.isTemporaryID }, "told of its permanent ID on the main actor")
    }

    /// Many children on their own queues insert at once into one parent: every object keeps a
    /// distinct ID, and every save reaches the store.
    @MainActor @Test func concurrentChildren_takeDistinctKeys() async throws {
        let store = try TestStores.newStore(TestStores.library)
        let view = store.newContext()
        let children = (0..<4).map { _ in view.newBackgroundChildContext() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (number, child) in children.enumerated() {
                group.addTask {
                    try await child.perform { context in
                        for index in 0..<300 { Book(context: context).title = "\(number)-\(index)" }
                        try context.save()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(view.insertedObjects.count == 1200)
        #expect(Set(view.insertedObjects.map(\.objectID)).count == 1200)
        try await view.save()
        #expect(try await store.newContext().count(for: FetchRequest<Book>()) == 1200)
    }

    /// Three levels on alternating isolations: a background root, a main-actor child, a
    /// background grandchild. Each level is read where it is used; IDs obtained in the grandchild
    /// are permanent at once and stay so through both saves.
    @MainActor @Test func threeLevelsOnAlternatingIsolations() async throws {
        let store = try TestStores.newStore(TestStores.library)
        let writer = store.newBackgroundContext()
        await writer.perform { context in Book(context: context).title = "In the writer, unsaved" }
        let view = ObjectContext(parent: writer)
        Book(context: view).title = "In the view, unsaved"
        let grandchild = view.newBackgroundChildContext()
        let (seen, id) = try await grandchild.perform { context in
            let seen = try Self.titles(context)
            let book = Book(context: context)
            book.title = "In the grandchild"
            try context.obtainPermanentIDs(for: [book])
            let id = book.objectID
            try context.save()
            return (seen, id)
        }
        #expect(seen == ["In the view, unsaved", "In the writer, unsaved"])
        #expect(!id.isTemporaryID)
        #expect(try view.existingObject(with: id).objectID == id)
        try await view.save()
        let saved = try await writer.perform { context in
            try context.save()
            return try Self.titles(context)
        }
        #expect(saved == ["In the grandchild", "In the view, unsaved", "In the writer, unsaved"])
        #expect(try await store.newContext().fetch(FetchRequest<Book>(predicate: Book.title == "In the grandchild")).map(\.objectID) == [id])
    }
}
