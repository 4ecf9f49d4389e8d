import DataStore
import Foundation
import Library
import Testing

/// `obtainPermanentIDs(for:)`: permanent IDs before a save, as Core Data gives them.
@Suite struct PermanentIDTests {
    @Test(arguments: TestedEngine.available) func objectsGetTheirKeys_andTheirSaveWritesThem(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            let books = (0..<3).map { index in
                let book = Book(context: context)
                book.title = "Book \(index)"
                return book
            }
            let author = Author(context: context)
            author.name = "Austen"
            books[0].author = author
            try context.obtainPermanentIDs(for: books + [author, books[0]])

            #expect(books.allSatisfy { !$0.objectID.isTemporaryID && $0.isInserted })
            #expect(books.compactMap(\.objectID.primaryKey) == [1, 2, 3])
            #expect(author.objectID.primaryKey == 1, "each hierarchy takes its own keys")
            #expect(try context.existingObject(with: books[1].objectID) === books[1], "found by its new ID")
            #expect(books[0].author === author && author.books == [books[0]])

            // Another context takes keys after those, so the saves cannot clash.
            let other = store.newContext()
            Book(context: other).title = "Other"
            try other.save()
            try context.save()
            let ids = books.map(\.objectID)
            #expect(books.map(\.objectID) == ids, "the save keeps the IDs")
            let reader = store.newContext()
            let titles = try reader.fetch(FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor(Book.title)]))
                .map { "\($0.title) \($0.objectID.primaryKey ?? 0)" }
            #expect(titles == ["Book 0 1", "Book 1 2", "Book 2 3", "Other 4"])
            let reread = try #require(try reader.existingObject(with: ids[0]) as? Book)
            #expect(reread.author?.name == "Austen")
        }
    }

    @Test func aChildsObjects_keepTheirKeys_throughTheParentsSave() throws {
        let store = try TestStores.newStore(TestStores.library)
        let parent = store.newContext()
        let child = ObjectContext(parent: parent)
        let book = Book(context: child)
        book.title = "Emma"
        try child.obtainPermanentIDs(for: [book])
        let id = book.objectID
        #expect(id.primaryKey == 1)
        try child.save()
        #expect(try parent.existingObject(with: id).objectID == id)
        try parent.save()
        #expect(try store.newContext().fetch(FetchRequest<Book>()).map(\.objectID) == [id])
    }

    @Test func savedOrForeignObjects_areLeftAlone() throws {
        let store = try TestStores.newStore(TestStores.library)
        let context = store.newContext()
        let saved = Book(context: context)
        saved.title = "Saved"
        try context.save()
        let savedID = saved.objectID
        let elsewhere = Book(context: store.newContext())
        try context.obtainPermanentIDs(for: [saved, elsewhere])
        #expect(saved.objectID == savedID)
        #expect(elsewhere.objectID.isTemporaryID)
    }
}
