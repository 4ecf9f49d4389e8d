// The classes the generator is to produce for Models/Everything.xcdatamodeld (version
// "Everything 2"), whose classes live in the module `Library` (`representedClassName="Library.Book"`).
// Composite (`shelfSpot`) and transient ObjectID/Undefined attributes are not exposed yet.
import DataStore
import Foundation

enum Library {
    /// An `Item` of the Everything model (abstract).
    class Item: ManagedObject {
        override class var entityName: String { "Item" }

        static let added = AttributeKey<Item, Date>("added", slot: 0)
        static let identifier = AttributeKey<Item, UUID?>("identifier", slot: 1)

        var added: Date {
            get { self[Item.added] }
            set { self[Item.added] = newValue }
        }

        var identifier: UUID? {
            get { self[Item.identifier] }
            set { self[Item.identifier] = newValue }
        }
    }

    /// A `Book` of the Everything model.
    class Book: Item {
        override class var entityName: String { "Book" }

        static let cover = AttributeKey<Book, Data?>("cover", slot: 2)
        static let fileSize = AttributeKey<Book, Int64>("fileSize", slot: 3)
        static let isAvailable = AttributeKey<Book, Bool>("isAvailable", slot: 4)
        static let isbn = AttributeKey<Book, String?>("isbn", slot: 5)
        static let legacyCode = AttributeKey<Book, String?>("legacyCode", slot: 6)
        static let metadata = TransformableKey<Book, [String: String]>("metadata", slot: 7)
        static let notes = AttributeKey<Book, String?>("notes", slot: 8)
        static let pageCount = AttributeKey<Book, Int16>("pageCount", slot: 10)
        static let pagesCount = AttributeKey<Book, Int64?>("pagesCount", slot: 11)
        static let price = AttributeKey<Book, Decimal?>("price", slot: 12)
        static let published = AttributeKey<Book, Date?>("published", slot: 13)
        static let rating = AttributeKey<Book, Float?>("rating", slot: 14)
        static let searchText = AttributeKey<Book, String?>("searchText", slot: 16)
        static let title = AttributeKey<Book, String>("title", slot: 18)
        static let website = AttributeKey<Book, URL?>("website", slot: 19)
        static let weight = AttributeKey<Book, Double?>("weight", slot: 20)
        static let wordCount = AttributeKey<Book, Int?>("wordCount", slot: 21)
        static let author = ToOneKey<Book, Author>("author", slot: 0)
        static let chapters = ToManyKey<Book, Chapter>("chapters", slot: 1)
        static let featuredOn = ToOneKey<Book, Shelf>("featuredOn", slot: 2)
        static let recommendedBy = ToManyKey<Book, Reader>("recommendedBy", slot: 3)
        static let related = ToManyKey<Book, Book>("related", slot: 4)
        static let shelf = ToOneKey<Book, Shelf>("shelf", slot: 5)
        static let tags = ToManyKey<Book, Tag>("tags", slot: 6)

        var cover: Data? { get { self[Book.cover] } set { self[Book.cover] = newValue } }
        var fileSize: Int64 { get { self[Book.fileSize] } set { self[Book.fileSize] = newValue } }
        var isAvailable: Bool { get { self[Book.isAvailable] } set { self[Book.isAvailable] = newValue } }
        var isbn: String? { get { self[Book.isbn] } set { self[Book.isbn] = newValue } }
        var legacyCode: String? { get { self[Book.legacyCode] } set { self[Book.legacyCode] = newValue } }
        var metadata: [String: String]? { get { self[Book.metadata] } set { self[Book.metadata] = newValue } }
        var notes: String? { get { self[Book.notes] } set { self[Book.notes] = newValue } }
        var pageCount: Int16 { get { self[Book.pageCount] } set { self[Book.pageCount] = newValue } }
        var pagesCount: Int64? { get { self[Book.pagesCount] } set { self[Book.pagesCount] = newValue } }
        var price: Decimal? { get { self[Book.price] } set { self[Book.price] = newValue } }
        var published: Date? { get { self[Book.published] } set { self[Book.published] = newValue } }
        var rating: Float? { get { self[Book.rating] } set { self[Book.rating] = newValue } }
        var searchText: String? { get { self[Book.searchText] } set { self[Book.searchText] = newValue } }
        var title: String { get { self[Book.title] } set { self[Book.title] = newValue } }
        var website: URL? { get { self[Book.website] } set { self[Book.website] = newValue } }
        var weight: Double? { get { self[Book.weight] } set { self[Book.weight] = newValue } }
        var wordCount: Int? { get { self[Book.wordCount] } set { self[Book.wordCount] = newValue } }
        var author: Author? { get { self[Book.author] } set { self[Book.author] = newValue } }
        var chapters: [Chapter] { get { self[ordered: Book.chapters] } set { self[ordered: Book.chapters] = newValue } }
        var featuredOn: Shelf? { get { self[Book.featuredOn] } set { self[Book.featuredOn] = newValue } }
        var recommendedBy: Set<Reader> { get { self[Book.recommendedBy] } set { self[Book.recommendedBy] = newValue } }
        var related: Set<Book> { get { self[Book.related] } set { self[Book.related] = newValue } }
        var shelf: Shelf? { get { self[Book.shelf] } set { self[Book.shelf] = newValue } }
        var tags: Set<Tag> { get { self[Book.tags] } set { self[Book.tags] = newValue } }

        func addToChapters(_ chapter: Chapter) { add(chapter, to: Book.chapters) }
        func insertIntoChapters(_ chapter: Chapter, at index: Int) { insert(chapter, at: index, into: Book.chapters) }
        func removeFromChapters(_ chapter: Chapter) { remove(chapter, from: Book.chapters) }
        func addToTags(_ tag: Tag) { add(tag, to: Book.tags) }
        func removeFromTags(_ tag: Tag) { remove(tag, from: Book.tags) }
        func addToRelated(_ book: Book) { add(book, to: Book.related) }
        func addToRecommendedBy(_ reader: Reader) { add(reader, to: Book.recommendedBy) }
    }

    /// An `Ebook` of the Everything model.
    final class Ebook: Book {
        override class var entityName: String { "Ebook" }

        static let fileFormat = AttributeKey<Ebook, String>("fileFormat", slot: 22)
        static let sizeBytes = AttributeKey<Ebook, Int64>("sizeBytes", slot: 23)

        var fileFormat: String { get { self[Ebook.fileFormat] } set { self[Ebook.fileFormat] = newValue } }
        var sizeBytes: Int64 { get { self[Ebook.sizeBytes] } set { self[Ebook.sizeBytes] = newValue } }
    }

    /// An `Audiobook` of the Everything model.
    final class Audiobook: Book {
        override class var entityName: String { "Audiobook" }

        static let duration = AttributeKey<Audiobook, Double>("duration", slot: 22)
        static let narrator = ToOneKey<Audiobook, Author>("narrator", slot: 7)

        var duration: Double { get { self[Audiobook.duration] } set { self[Audiobook.duration] = newValue } }
        var narrator: Author? { get { self[Audiobook.narrator] } set { self[Audiobook.narrator] = newValue } }
    }

    /// An `Author` of the Everything model.
    final class Author: ManagedObject {
        override class var entityName: String { "Author" }

        static let name = AttributeKey<Author, String>("name", slot: 0)
        static let books = ToManyKey<Author, Book>("books", slot: 0)
        static let narrated = ToManyKey<Author, Audiobook>("narrated", slot: 1)

        var name: String { get { self[Author.name] } set { self[Author.name] = newValue } }
        var books: Set<Book> { get { self[Author.books] } set { self[Author.books] = newValue } }
        var narrated: Set<Audiobook> { get { self[Author.narrated] } set { self[Author.narrated] = newValue } }

        func addToBooks(_ book: Book) { add(book, to: Author.books) }
        func removeFromBooks(_ book: Book) { remove(book, from: Author.books) }
    }

    /// A `Chapter` of the Everything model.
    final class Chapter: ManagedObject {
        override class var entityName: String { "Chapter" }

        static let index = AttributeKey<Chapter, Int16>("index", slot: 0)
        static let title = AttributeKey<Chapter, String?>("title", slot: 1)
        static let book = ToOneKey<Chapter, Book>("book", slot: 0)

        var index: Int16 { get { self[Chapter.index] } set { self[Chapter.index] = newValue } }
        var title: String? { get { self[Chapter.title] } set { self[Chapter.title] = newValue } }
        var book: Book? { get { self[Chapter.book] } set { self[Chapter.book] = newValue } }
    }

    /// A `Tag` of the Everything model.
    final class Tag: ManagedObject {
        override class var entityName: String { "Tag" }

        static let name = AttributeKey<Tag, String>("name", slot: 0)
        static let books = ToManyKey<Tag, Book>("books", slot: 0)

        var name: String { get { self[Tag.name] } set { self[Tag.name] = newValue } }
        var books: [Book] { get { self[ordered: Tag.books] } set { self[ordered: Tag.books] = newValue } }
    }

    /// A `Shelf` of the Everything model.
    final class Shelf: ManagedObject {
        override class var entityName: String { "Shelf" }

        static let name = AttributeKey<Shelf, String?>("name", slot: 0)
        static let books = ToManyKey<Shelf, Book>("books", slot: 0)
        static let featured = ToOneKey<Shelf, Book>("featured", slot: 1)

        var name: String? { get { self[Shelf.name] } set { self[Shelf.name] = newValue } }
        var books: Set<Book> { get { self[Shelf.books] } set { self[Shelf.books] = newValue } }
        var featured: Book? { get { self[Shelf.featured] } set { self[Shelf.featured] = newValue } }
    }

    /// A `Reader` of the Everything model.
    final class Reader: ManagedObject {
        override class var entityName: String { "Reader" }

        static let name = AttributeKey<Reader, String?>("name", slot: 0)

        var name: String? { get { self[Reader.name] } set { self[Reader.name] = newValue } }
    }

    static let classes: [ManagedObject.Type] = [Item.self, Book.self, Ebook.self, Audiobook.self, Author.self, Chapter.self, Tag.self, Shelf.self, Reader.self]
}
