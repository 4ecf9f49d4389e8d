@testable import DataStore
import Foundation
import Library
import Testing

/// A save's change set lists its inserted IDs and makes the set on first use: the set must be the
/// same however and from however many tasks at once it is first asked for.
@Suite struct ChangeSetTests {
    /// A change set published by a save of `count` new books.
    private func savedChanges(count: Int) throws -> (changes: ChangeSet, ids: Set<ObjectID>) {
        let store = try TestStores.newStore(TestStores.library)
        let received = Locked<[ChangeSet]>([])
        store.addObserver { changes in received.withLock { $0.append(changes) } }
        let context = store.newContext()
        let books = (0..<count).map { index in
            let book = Library.Book(context: context)
            book.title = "Book \(index)"
            return book
        }
        try context.save()
        let changes = try #require(received.withLock { $0.first })
        return (changes, Set(books.map(\.objectID)))
    }

    @Test func insertedIDs_areTheSavedObjects_andCompareAsSets() throws {
        let (changes, ids) = try savedChanges(count: 500)
        #expect(!changes.isEmpty)
        #expect(changes.inserted == ids)
        #expect(changes.inserted.allSatisfy { !$0.isTemporaryID })
        #expect(changes == ChangeSet(inserted: ids))
        #expect(changes != ChangeSet(inserted: Set(ids.dropFirst())))
    }

    @Test func settingInserted_replacesTheIDs() throws {
        var (changes, ids) = try savedChanges(count: 3)
        let kept = try #require(ids.first)
        changes.inserted = [kept]
        #expect(changes.inserted == [kept])
        changes.inserted.remove(kept)
        #expect(changes.inserted.isEmpty)
        #expect(changes.isEmpty)
    }

    @Test func firstUseFromManyTasksAtOnce_givesOneSet() async throws {
        let (changes, ids) = try savedChanges(count: 2_000)
        let sets = await withTaskGroup(of: Set<ObjectID>.self) { group in
            for _ in 0..<8 { group.addTask { changes.inserted } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(sets.count == 8)
        #expect(sets.allSatisfy { $0 == ids })
    }
}
