import DataStore
import Foundation
import GRDB
import class GeneratedBooks.Book
import Library
import Testing

/// Relationships of the Everything model: inverses kept in memory, and the store's layout after saving.
@Suite struct RelationshipTests {
    typealias Author = Library.Author
    typealias Book = Library.Book
    typealias Chapter = Library.Chapter
    typealias Tag = Library.Tag
    typealias Shelf = Library.Shelf
    typealias Reader = Library.Reader

    static func newBook(_ context: ObjectContext, _ title: String) -> Book {
        let book = Book(context: context)
        book.title = title
        return book
    }

    @Test(arguments: TestedEngine.available) func toOne_andToMany_stayInverse(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            let eliot = Author(context: context)
            let austen = Author(context: context)
            let book = Self.newBook(context, "Emma")
            book.author = austen
            #expect(austen.books == [book])
            book.author = eliot
            #expect(austen.books.isEmpty)
            #expect(eliot.books == [book])
            austen.addToBooks(book)
            #expect(book.author === austen)
            #expect(eliot.books.isEmpty)
            austen.removeFromBooks(book)
            #expect(book.author == nil)
        }
    }

    @Test(arguments: TestedEngine.available) func oneToOne_movesFromThePreviousPartner(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            let shelf = Shelf(context: context)
            let other = Shelf(context: context)
            let book = Self.newBook(context, "Persuasion")
            shelf.featured = book
            #expect(book.featuredOn === shelf)
            other.featured = book
            #expect(shelf.featured == nil)
            #expect(book.featuredOn === other)
        }
    }

    @Test(arguments: TestedEngine.available) func relationships_surviveASave_andReadBackFromTheStore(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            let author = Author(context: context)
            author.name = "George Eliot"
            let book = Self.newBook(context, "Middlemarch")
            book.author = author
            let chapters = (1...3).map { number in
                let chapter = Chapter(context: context)
                chapter.index = Int16(number)
                return chapter
            }
            book.chapters = [chapters[2], chapters[0]]
            book.insertIntoChapters(chapters[1], at: 1)
            let tags = ["novel", "classic"].map { name in
                let tag = Tag(context: context)
                tag.name = name
                return tag
            }
            book.tags = Set(tags)
            let sequel = Self.newBook(context, "Daniel Deronda")
            book.addToRelated(sequel)
            let reader = Reader(context: context)
            book.addToRecommendedBy(reader)
            let shelf = Shelf(context: context)
            shelf.featured = book
            try context.save()

            #expect(book.chapters.map(\.index) == [3, 2, 1])
            #expect(sequel.related == [book], "a relationship that is its own inverse")

            let fresh = store.newContext()
            let reread = try #require(try fresh.fetch(FetchRequest<Book>()).first { $0.title == "Middlemarch" })
            #expect(reread.author?.name == "George Eliot")
            #expect(reread.chapters.map(\.index) == [3, 2, 1])
            #expect(Set(reread.tags.map(\.name)) == ["novel", "classic"])
            #expect(reread.tags.allSatisfy { $0.books.map(\.title) == ["Middlemarch"] })
            #expect(reread.related.map(\.title) == ["Daniel Deronda"])
            #expect(reread.recommendedBy.count == 1)
            #expect(reread.featuredOn != nil)
            #expect(reread.featuredOn?.featured === reread)

            let orderKeys = try TestStores.rows(#"SELECT "Z_FOK_BOOK" FROM "ZCHAPTER" ORDER BY "ZINDEX""#, in: store)
            #expect(orderKeys == [["3072"], ["2048"], ["1024"]], "sparse order keys, 1024 apart")
            let join = try #require(TestStores.library.schema.joinTable(forRelationship: "tags", ofEntity: "Book"))
            #expect(try TestStores.rows("SELECT count(*) FROM \"\(join.name)\"", in: store) == [["2"]])
        }
    }

    @Test(arguments: TestedEngine.available) func orderedToMany_reordersAndRemoves(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            let book = Self.newBook(context, "Emma")
            let chapters = (1...4).map { number in
                let chapter = Chapter(context: context)
                chapter.index = Int16(number)
                book.addToChapters(chapter)
                return chapter
            }
            try context.save()
            book.removeFromChapters(chapters[1])
            book.insertIntoChapters(chapters[3], at: 0)
            #expect(chapters[1].book == nil)
            #expect(throws: SaveError.validation([.missingValue(chapters[1].objectID, property: "book")])) { try context.save() }
            context.delete(chapters[1])
            try context.save()
            let fresh = store.newContext()  // objects need their context alive to load relationships
            let reread = try #require(try fresh.fetch(FetchRequest<Book>()).first)
            #expect(reread.chapters.map(\.index) == [4, 1, 3])
        }
    }

    @Test(arguments: TestedEngine.available) func relationshipChanges_rollBack_surviveARefresh_andSaveOnce(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            let austen = Author(context: context)
            austen.name = "Jane Austen"
            let eliot = Author(context: context)
            eliot.name = "George Eliot"
            let emma = Self.newBook(context, "Emma")
            emma.author = austen
            try context.save()

            // Read back in another context, where every object starts unchanged.
            let other = store.newContext()
            let book = try #require(try other.fetch(FetchRequest<Book>()).first)
            let authors = try other.fetch(FetchRequest<Author>())
            let (first, second) = (try #require(authors.first { $0.objectID == austen.objectID }), try #require(authors.first { $0.objectID == eliot.objectID }))
            #expect(first.books == [book] && second.books.isEmpty)
            book.author = second
            #expect(book.isUpdated && first.books.isEmpty && second.books == [book])
            other.rollback()
            #expect(book.author === first && first.books == [book] && second.books.isEmpty)
            #expect(!other.hasChanges)

            // A change kept on top of fresh values, then saved: the store holds it, and nothing is left to save.
            book.author = second
            other.refresh(book, mergeChanges: true)
            #expect(book.author === second && book.isUpdated)
            try other.save()
            #expect(!other.hasChanges && !book.isUpdated)
            let fresh = store.newContext()
            let reread = try #require(try fresh.fetch(FetchRequest<Book>()).first)
            #expect(reread.author?.objectID == eliot.objectID)
            other.rollback()
            #expect(book.author === second)
        }
    }

    @Test(arguments: TestedEngine.available) func manyToMany_removalDeletesTheJoinRow(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            let book = Self.newBook(context, "Emma")
            let tag = Tag(context: context)
            book.addToTags(tag)
            #expect(tag.books == [book])
            try context.save()
            book.removeFromTags(tag)
            #expect(tag.books.isEmpty)
            try context.save()
            let fresh = store.newContext()
            #expect(try #require(try fresh.fetch(FetchRequest<Tag>()).first).books.isEmpty)
        }
    }

    @Test(arguments: TestedEngine.available) func toOneTraversal_readsEachDestinationOnce_andKeepsABoundedNumberAlive(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let setup = store.newContext()
            let authors = (0..<3).map { index in
                let author = Author(context: setup)
                author.name = "Author \(index)"
                return author
            }
            for index in 0..<30 { Self.newBook(setup, "Book \(index)").author = authors[index % 3] }
            try setup.save()

            // Nobody holds the authors, yet walking 30 books to them reads each author's row once.
            let context = store.newContext()
            let books = try context.fetch(FetchRequest<Book>())
            let log = store.recordSQL()
            let names = books.map { $0.author?.name }
            #expect(names.filter { $0 != nil }.count == 30 && Set(names).count == 3)
            #expect(log.statementsInSQLiteWords.filter { $0.contains("FROM ZAUTHOR") }.count == 3, "\(log.statements)")

            // Reaching more destinations than are kept lets the oldest go: memory stays bounded.
            weak let first = books[0].author
            #expect(first != nil)
            let many = store.newContext()
            for index in 0..<1_100 {
                let author = Author(context: many)
                author.name = "Many \(index)"
                Self.newBook(many, "Many \(index)").author = author
            }
            try many.save()
            let manyBooks = try context.fetch(FetchRequest<Book>(predicate: try ObjectPredicate(format: "title BEGINSWITH 'Many'")))
            for book in manyBooks { _ = book.author }
            #expect(first == nil)

            // A reset lets every kept destination go.
            weak let last = manyBooks.last?.author
            #expect(last != nil)
            context.reset()
            #expect(last == nil)
        }
    }
}
