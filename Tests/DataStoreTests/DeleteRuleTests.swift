import DataStore
import Foundation
import class GeneratedBooks.Book
import Library
import Testing

@Suite struct DeleteRuleTests {
    typealias Author = Library.Author
    typealias Book = Library.Book
    typealias Chapter = Library.Chapter
    typealias Shelf = Library.Shelf

    @Test(arguments: TestedEngine.available) func nullify_removesTheObjectFromTheOtherSide(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            let author = Author(context: context)
            let book = Book(context: context)
            book.author = author
            try context.save()
            context.delete(author)
            try context.save()
            #expect(book.author == nil)
            let fresh = store.newContext()
            #expect(try fresh.fetch(FetchRequest<Book>()).first?.author == nil)
        }
    }

    @Test(arguments: TestedEngine.available) func cascade_deletesTheDestinations(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            let book = Book(context: context)
            for _ in 0..<3 { book.addToChapters(Chapter(context: context)) }
            try context.save()
            context.delete(book)
            try context.save()
            #expect(try store.newContext().fetch(FetchRequest<Chapter>()).isEmpty)
        }
    }

    @Test(arguments: TestedEngine.available) func deny_failsTheSave_whileDestinationsRemain(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            let shelf = Shelf(context: context)
            let book = Book(context: context)
            book.shelf = shelf
            try context.save()
            context.delete(shelf)
            #expect(throws: SaveError.validation([.deleteDenied(shelf.objectID, relationship: "books")])) { try context.save() }
            #expect(try store.newContext().fetch(FetchRequest<Shelf>()).count == 1, "nothing was written")
            context.delete(book)
            try context.save()
            #expect(try store.newContext().fetch(FetchRequest<Shelf>()).isEmpty)
        }
    }

    @Test(arguments: TestedEngine.available) func noAction_leavesTheOtherSideAlone(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            let book = Book(context: context)
            let reader = Library.Reader(context: context)
            book.addToRecommendedBy(reader)
            try context.save()
            context.delete(book)
            try context.save()
            #expect(try store.newContext().fetch(FetchRequest<Library.Reader>()).count == 1)
        }
    }

    @Test(arguments: TestedEngine.available) func deletingAnUnsavedObject_neverReachesTheStore(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            let author = Author(context: context)
            let book = Book(context: context)
            book.author = author
            context.delete(book)
            #expect(author.books.isEmpty == false, "rules apply when saving, as in Core Data")
            try context.save()
            #expect(author.books.isEmpty)
            #expect(try store.newContext().fetch(FetchRequest<Book>()).isEmpty)
        }
    }
}
