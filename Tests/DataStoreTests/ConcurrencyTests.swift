@testable import DataStore
import Foundation
import class GeneratedBooks.Book
import Library
import Synchronization
import Testing

/// Several contexts on one store: optimistic locking, merging saves, background contexts.
@Suite struct ConcurrencyTests {
    typealias Author = Library.Author

    @Test(arguments: TestedEngine.available) func savingOverAChangedRow_failsWithAConflict_andOverwritesNothing(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store in
            let setup = store.newContext()
            let book = Book(context: setup)
            book.title = "Original"
            try setup.save()

            let first = store.newContext(), second = store.newContext()
            let mine = try #require(try first.fetch(FetchRequest<Book>()).first)
            let theirs = try #require(try second.fetch(FetchRequest<Book>()).first)
            mine.title = "Mine"
            theirs.title = "Theirs"
            try first.save()
            #expect(throws: SaveError.conflicts([.init(objectID: theirs.objectID, expectedVersion: 1, storeVersion: 2)])) {
                try second.save()
            }
            let check = store.newContext()
            #expect(try check.fetch(FetchRequest<Book>()).map(\.title) == ["Mine"])
            #expect(theirs.title == "Theirs", "the losing change stays in its context")

            second.refresh(theirs, mergeChanges: true)
            try second.save()
            let after = store.newContext()
            #expect(try after.fetch(FetchRequest<Book>()).map(\.title) == ["Theirs"])
        }
    }

    @Test(arguments: TestedEngine.available) func savingAnObjectDeletedElsewhere_failsWithAConflict(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store in
            let first = store.newContext()
            let book = Book(context: first)
            try first.save()
            let second = store.newContext()
            let theirs = try #require(try second.fetch(FetchRequest<Book>()).first)
            _ = theirs.title
            first.delete(book)
            try first.save()
            theirs.price = 9
            #expect(throws: SaveError.conflicts([.init(objectID: theirs.objectID, expectedVersion: 1, storeVersion: nil)])) {
                try second.save()
            }
        }
    }

    @Test(arguments: TestedEngine.available) func mergedSaves_showUpInAnotherContext(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let list = store.newContext()
            let writer = store.newContext()
            let author = Author(context: writer)
            author.name = "Charlotte Brontë"
            let first = Library.Book(context: writer)
            first.title = "Jane Eyre"
            first.author = author
            try writer.save()

            let listed = try #require(try list.fetch(FetchRequest<Author>()).first)
            #expect(listed.books.map(\.title) == ["Jane Eyre"])

            let received = Locked<[ChangeSet]>([])
            store.addObserver { changes in received.withLock { $0.append(changes) } }
            let second = Library.Book(context: writer)
            second.title = "Villette"
            second.author = author
            first.title = "Jane Eyre: An Autobiography"
            try writer.save()
            let changes = try #require(received.withLock { $0.first })
            #expect(changes.inserted == [second.objectID])
            #expect(changes.updated[first.objectID] == ["title"])
            #expect(changes.updated[author.objectID] == ["books"])

            list.mergeChanges(from: changes)
            #expect(Set(listed.books.map(\.title)) == ["Jane Eyre: An Autobiography", "Villette"])

            writer.delete(second)
            try writer.save()
            list.mergeChanges(from: try #require(received.withLock { $0.last }))
            #expect(listed.books.map(\.title) == ["Jane Eyre: An Autobiography"])
        }
    }

    /// Fetches and faults on five threads, started together, while a sixth saves ten books at a
    /// time: every read of one statement runs on a connection of its own (more than the store
    /// keeps idle, so some close as they are given back), without errors, and sees whole saves.
    @Test func readsOnManyThreads_whileSaving_seeWholeSaves() throws {
        let store = try TestStores.newStore(TestStores.books)
        let (saves, booksPerSave, readers) = (20, 10, 5)
        let failures = Mutex<[String]>([])
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for thread in 0...readers {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                start.wait()
                do {
                    let context = store.newContext()
                    guard thread > 0 else {
                        for save in 0..<saves {
                            for index in 0..<booksPerSave { Book(context: context).title = "Save \(save), book \(index)" }
                            try context.save()
                        }
                        return
                    }
                    for _ in 0..<30 {
                        let ids = try store.newContext().fetchObjectIDs(FetchRequest<Book>())
                        let titles = ids.map { id in (context.object(with: id) as? Book)?.title ?? "not a book" }
                        if ids.count % booksPerSave != 0 || titles.contains(where: { !$0.hasPrefix("Save ") }) {
                            failures.withLock { $0.append("\(ids.count) books, titles \(titles.prefix(3))") }
                        }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        for _ in 0...readers { start.signal() }
        done.wait()
        #expect(failures.withLock { $0 } == [])
        #expect(try store.newContext().count(for: FetchRequest<Book>()) == saves * booksPerSave)
    }

    @Test(arguments: TestedEngine.available) func backgroundContext_savesOffTheCallersIsolation(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine, awaiting: { store in
            let background = store.newBackgroundContext()
            let id = try await background.perform { context in
                let book = Book(context: context)
                book.title = "Written in the background"
                try context.save()
                return book.objectID
            }
            let context = store.newContext()
            let book = try #require(try context.existingObject(with: id) as? Book)
            #expect(book.title == "Written in the background")
        })
    }

    @Test(arguments: TestedEngine.available) func savedChanges_isAnAsyncSequence(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine, awaiting: { store in
            let stream = store.savedChanges
            let context = store.newContext()
            let book = Book(context: context)
            try await context.save()
            var iterator = stream.makeAsyncIterator()
            #expect(await iterator.next()?.inserted == [book.objectID])
        })
    }
}
