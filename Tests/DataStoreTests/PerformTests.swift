import DataStore
import Dispatch
import Foundation
import GeneratedBooks
import Synchronization
import Testing

/// `perform` on every kind of context: the same code on the main actor's context and on a
/// background one, from tasks, actors and threads.
@Suite struct PerformTests {
    /// Code written once for any context.
    static func importTitles(_ titles: [String], into context: ObjectContext) throws -> Int {
        for title in titles {
            let book = Book(context: context)
            book.title = title
        }
        try context.save()
        return try context.count(for: FetchRequest<Book>())
    }

    @MainActor
    @Test func sameCode_runsOnTheMainActorsContext_andOnABackgroundContext() async throws {
        let store = try TestStores.newStore(TestStores.books)
        let viewContext = store.newContext()
        let background = store.newBackgroundContext()

        let afterView = try await viewContext.perform { try Self.importTitles(["Emma"], into: $0) }
        let afterBackground = try await background.perform { try Self.importTitles(["Persuasion"], into: $0) }
        let afterBoth = try background.performAndWait { try Self.importTitles(["Sanditon"], into: $0) }
        let counted = try viewContext.performAndWait { try $0.count(for: FetchRequest<Book>()) }
        #expect([afterView, afterBackground, afterBoth, counted] == [Int]([1, 2, 3, 3]))
    }

    @Test func scheduledWork_runsInOrder_beforeALaterPerformAndWait() throws {
        let store = try TestStores.newStore(TestStores.books)
        let background = store.newBackgroundContext()
        for index in 0..<100 {
            background.perform { context in
                let book = Book(context: context)
                book.title = String(format: "%03d", index)
            }
        }
        let titles = background.performAndWait { context in context.insertedObjects.compactMap { ($0 as? Book)?.title } }
        #expect(titles == (0..<100).map { String(format: "%03d", $0) })
    }

    @Test func performAndWait_insidePerform_runsAtOnce() async throws {
        let store = try TestStores.newStore(TestStores.books)
        let background = store.newBackgroundContext()
        let nested = await background.perform { context in
            _ = Book(context: context)
            return background.performAndWait { $0.insertedObjects.count }
        }
        #expect(nested == 1)
    }

    /// An importer actor owning a background context; many tasks import through it at once.
    actor Importer {
        let context: BackgroundContext

        init(store: PersistentStore) {
            context = store.newBackgroundContext()
        }

        func importBatch(_ number: Int) async throws -> Int {
            try await context.perform { context in
                try PerformTests.importTitles((0..<10).map { "Batch \(number) book \($0)" }, into: context)
            }
        }
    }

    @Test func tasksAndActors_shareABackgroundContext() async throws {
        let store = try TestStores.newStore(TestStores.books)
        let importer = Importer(store: store)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for number in 0..<8 { group.addTask { try await importer.importBatch(number) } }
            var counts: [Int] = []
            for try await count in group { counts.append(count) }
            #expect(counts.sorted() == (1...8).map { $0 * 10 })
        }
    }

    @Test func threads_performAndWait_oneAtATime() throws {
        let store = try TestStores.newStore(TestStores.books)
        let background = store.newBackgroundContext()
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            do {
                _ = try background.performAndWait { try Self.importTitles(["Thread \(index)"], into: $0) }
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(try store.newContext().count(for: FetchRequest<Book>()) == 16)
    }
}
