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

    /// A save finds most objects changing what the one before changed, and shares their names;
    /// each object must still be told its own.
    @Test func eachUpdatedObject_hasItsOwnChangedKeys_inASaveOfMany() throws {
        let store = try TestStores.newStore(TestStores.library)
        let received = Locked<[ChangeSet]>([])
        store.addObserver { changes in received.withLock { $0.append(changes) } }
        let context = store.newContext()
        let author = Author(context: context)
        author.name = "Anne Brontë"
        let books = (0..<6).map { index in
            let book = Library.Book(context: context)
            book.title = "Book \(index)"
            return book
        }
        let reader = Reader(context: context)
        reader.name = "A reader"
        try context.save()

        books[0].title = "Retitled 0"
        books[1].title = "Retitled 1"
        books[2].pageCount = 300
        books[3].title = "Retitled 3"
        books[3].author = author
        books[4].author = author
        books[5].title = "Retitled 5"
        reader.name = "Another reader"
        try context.save()
        let changes = try #require(received.withLock { $0.last })
        #expect(changes.updated[books[0].objectID] == ["title"])
        #expect(changes.updated[books[1].objectID] == ["title"])
        #expect(changes.updated[books[2].objectID] == ["pageCount"])
        #expect(changes.updated[books[3].objectID] == ["title", "author"])
        #expect(changes.updated[books[4].objectID] == ["author"])
        #expect(changes.updated[books[5].objectID] == ["title"])
        #expect(changes.updated[author.objectID] == ["books"])
        #expect(changes.updated[reader.objectID] == ["name"])
        #expect(changes.updated.count == 8)
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
