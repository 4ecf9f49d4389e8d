import DataStore
import Foundation
import GeneratedBooks
import Testing

/// A context tells its observers what changed: batched by `processPendingChanges()`, at `save()`
/// (with the permanent IDs of saved inserts), on `rollback()`, `reset()` and merges.
@Suite struct ObjectContextObservingTests {
    final class Recorder {
        var notifications: [ObjectsDidChange] = []
    }

    static func observed(in store: PersistentStore) throws -> (ObjectContext, Recorder) {
        let context = try FetchRequestTests.books([("Emma", 9), ("Persuasion", 12)], in: store)
        let recorder = Recorder()
        context.addObserver { recorder.notifications.append($0) }
        return (context, recorder)
    }

    @Test(arguments: TestedEngine.available) func edits_arriveAsOneBatch_whenProcessed(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let (context, recorder) = try Self.observed(in: store)
            let books = try context.fetch(FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor(Book.title)]))
            books[0].price = 10
            books[0].title = "Emma!"
            context.delete(books[1])
            let new = Book(context: context)
            new.title = "Dracula"
            #expect(recorder.notifications.isEmpty)
            context.processPendingChanges()
            #expect(recorder.notifications == [ObjectsDidChange(inserted: [new.objectID], updated: [books[0].objectID], deleted: [books[1].objectID])])
            context.processPendingChanges()
            #expect(recorder.notifications.count == 1, "nothing new, nothing sent")

            let temporary = new.objectID
            try context.save()
            #expect(recorder.notifications.last == ObjectsDidChange(permanentIDs: [temporary: new.objectID]))
            #expect(!new.objectID.isTemporaryID)
        }
    }

    @Test(arguments: TestedEngine.available) func rollbackAndReset_tellObservers(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let (context, recorder) = try Self.observed(in: store)
            let book = try #require(try context.fetch(FetchRequest<Book>()).first)
            book.price = 1
            let new = Book(context: context)
            context.processPendingChanges()
            context.rollback()
            #expect(recorder.notifications.last == ObjectsDidChange(updated: [book.objectID], deleted: [new.objectID]))
            context.reset()
            #expect(recorder.notifications.last == ObjectsDidChange(invalidatesAll: true))
        }
    }

    @Test(arguments: TestedEngine.available) func merges_tellObserversWhatTheOtherSaveChanged(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let (context, recorder) = try Self.observed(in: store)
            let saved = ChangeSetCollector()
            store.addObserver { saved.append($0) }
            let other = store.newContext()
            let book = try #require(try other.fetch(FetchRequest<Book>()).first)
            book.price = 99
            let new = Book(context: other)
            new.title = "Orlando"
            try other.save()
            let changes = try #require(saved.all.last)
            context.mergeChanges(from: changes)
            #expect(recorder.notifications.last == ObjectsDidChange(inserted: [new.objectID], updated: [book.objectID]))
        }
    }

    @Test func monitoring_seesAnotherConnectionsCommit() async throws {
        let url = TestStores.newStoreURL()
        let store = try PersistentStore(url: url, model: TestStores.books)
        let saved = ChangeSetCollector()
        store.addObserver { saved.append($0) }
        let monitor = store.monitorExternalChanges(every: .milliseconds(20))
        defer { monitor.cancel() }
        // The store's own saves are not external writes.
        let own = store.newContext()
        Book(context: own).title = "Emma"
        try await own.save()
        let other = try PersistentStore(url: url, model: TestStores.books).newContext()
        Book(context: other).title = "Persuasion"
        try await other.save()
        for _ in 0..<200 where !saved.all.contains(where: \.isExternalWrite) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(saved.all.contains { $0.isExternalWrite })
        #expect(saved.all.filter { !$0.isExternalWrite }.count == 1)
    }
}
