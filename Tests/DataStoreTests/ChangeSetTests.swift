@testable import DataStore
import Foundation
import Library
import Testing

/// A save's change set: its inserted IDs, listed and made a set on first use (the same set however
/// and from however many tasks at once it is first asked for), and each updated object's changed
/// properties.
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

    /// A save gives an object the set of changed names of the object before it when both change
    /// the same properties of one entity; each object must still be told its own. The objects are
    /// changed in an order that puts side by side the same attributes with and without a changed
    /// relationship, and the same slot of two entities.
    @Test func eachUpdatedObject_hasItsOwnChangedKeys_inASaveOfMany() throws {
        let store = try TestStores.newStore(TestStores.library)
        let received = Locked<[ChangeSet]>([])
        store.addObserver { changes in received.withLock { $0.append(changes) } }
        let context = store.newContext()
        let author = Author(context: context)
        author.name = "Anne Brontë"
        let books = (0..<5).map { index in
            let book = Library.Book(context: context)
            book.title = "Book \(index)"
            return book
        }
        let chapter = Chapter(context: context)
        chapter.book = books[0]
        let reader = Reader(context: context)
        try context.save()

        books[0].title = "Retitled 0"
        books[1].title = "Retitled 1"
        books[1].author = author
        books[2].title = "Retitled 2"
        books[3].pageCount = 300
        books[4].pageCount = 400
        books[4].author = author
        chapter.index = 2  // slot 0 of its entity, as a reader's name is of its own
        reader.name = "A reader"
        try context.save()
        let changes = try #require(received.withLock { $0.last })
        #expect(changes.updated[books[0].objectID] == ["title"])
        #expect(changes.updated[books[1].objectID] == ["title", "author"])
        #expect(changes.updated[books[2].objectID] == ["title"])
        #expect(changes.updated[books[3].objectID] == ["pageCount"])
        #expect(changes.updated[books[4].objectID] == ["pageCount", "author"])
        #expect(changes.updated[author.objectID] == ["books"])
        #expect(changes.updated[chapter.objectID] == ["index"])
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
