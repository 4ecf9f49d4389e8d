import DataStore
import Foundation
import class GeneratedBooks.Book
import Library
import TestSupport
import Testing

/// Random predicates and sort orders over random data: what the store's SQL returns, and in what
/// order, equals what in-memory evaluation and sorting give — every time.
///
/// 2,000 predicates by default; `DATASTORE_PREDICATE_CASES=20000 swift test --filter PredicateEquivalenceTests`
/// for the full run. `DATASTORE_PREDICATE_SEED` replays a run.
@Suite struct PredicateEquivalenceTests {
    static let cases = ProcessInfo.processInfo.environment["DATASTORE_PREDICATE_CASES"].flatMap(Int.init) ?? 2_000
    static let seed = ProcessInfo.processInfo.environment["DATASTORE_PREDICATE_SEED"].flatMap(UInt64.init) ?? .random(in: 1...UInt64.max)

    @Test(arguments: TestedEngine.available) func randomPredicates_sqlEqualsMemory(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let cases = engine.share(of: Self.cases, fullCountIn: "DATASTORE_PREDICATE_CASES")
            var random = SplitMix64(seed: Self.seed)
            let objects = try RandomLibrary.populate(store, &random)
            let context = store.newContext()
            let books = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
            try #require(books.count == RandomLibrary.bookCount)
            var generator = RandomPredicate(objects: objects, random: random)
            var matchedSome = 0, matchedAll = 0
            for index in 0..<cases {
                let (format, arguments) = generator.predicate(depth: 2)
                let predicate = try ObjectPredicate(format: format, arguments: arguments)
                var request = FetchRequest<ManagedObject>(entityName: "Book")
                request.predicate = predicate
                request.sortDescriptors = generator.sortDescriptors()
                let fromSQL = try context.fetch(request)
                let inMemory = try context.sorted(books.filter { try predicate.evaluate(with: $0) }, by: request.sortDescriptors)
                let label = "case \(index), seed \(Self.seed): \(format) \(arguments) sorted by \(request.sortDescriptors)"
                try #require(fromSQL.map(\.objectID) == inMemory.map(\.objectID), "\(label)\nSQL: \(fromSQL.count)  memory: \(inMemory.count)")
                try #require(try context.count(for: request) == inMemory.count, "\(label): count")
                if !inMemory.isEmpty { matchedSome += 1 }
                if inMemory.count == books.count { matchedAll += 1 }
            }
            // The generator must produce predicates that discriminate, or the comparison means little.
            #expect(matchedSome > cases / 4, "only \(matchedSome) of \(cases) predicates matched anything")
            #expect(matchedAll < cases / 2, "\(matchedAll) of \(cases) predicates matched everything")
        }
    }
}


/// Random objects of the Everything model: books of three entities with every attribute type,
/// authors, shelves, chapters, tags and readers, nil values and Unicode strings in case and accent
/// variants.
enum RandomLibrary {
    static let bookCount = 60
    static let strings = ["apple", "Apple", "äpple", "ÄPPLE", "banana", "Bänänä", "café", "CAFE", "cafe\u{301}", "naïve", "Straße",
                          "STRASSE", "日本語", "a*b", "x?y", "file10", "file9", "File2", "zeta", "Zeta", "ÅNGSTRÖM", "'quoted'",
                          "semi;colon", "--dash", "a\"b"]
    static let uuids = (0..<3).map { _ in UUID() }
    static let urls = ["https://example.com/a", "https://example.com/b", "file:///tmp/x"].map { URL(string: $0)! }
    static let blobs = [Data([0, 1, 2]), Data([0xFF, 0]), Data(), Data([0x27, 0x3B])]

    /// What the generator can name: objects to compare with.
    struct Objects {
        var authors: [ObjectID]
        var books: [ObjectID]
        var shelves: [ObjectID]
        var tags: [ObjectID]
    }

    static func populate(_ store: PersistentStore, _ random: inout SplitMix64) throws -> Objects {
        let context = store.newContext()
        func maybe<T>(_ value: T, _ random: inout SplitMix64) -> T? { Int.random(in: 0..<5, using: &random) == 0 ? nil : value }
        // Author names are unique in the model.
        let authors = try strings.shuffled(using: &random).prefix(6).map { name in
            let author = try context.insertObject(entityName: "Author")
            try author.setValue(name, forKey: "name")
            return author
        }
        let shelves = try (0..<4).map { _ in
            let shelf = try context.insertObject(entityName: "Shelf")
            try shelf.setValue(maybe(strings.randomElement(using: &random)!, &random), forKey: "name")
            return shelf
        }
        let tags = try (0..<5).map { _ in
            let tag = try context.insertObject(entityName: "Tag")
            try tag.setValue(strings.randomElement(using: &random)!, forKey: "name")
            return tag
        }
        let readers = try (0..<4).map { _ in
            let reader = try context.insertObject(entityName: "Reader")
            try reader.setValue(maybe(strings.randomElement(using: &random)!, &random), forKey: "name")
            return reader
        }
        var books: [ManagedObject] = []
        // The model makes isbn and (title, author) unique.
        var titlesAndAuthors: Set<String> = []
        for number in 0..<bookCount {
            let book = try context.insertObject(entityName: ["Book", "Ebook", "Audiobook"].randomElement(using: &random)!)
            let author = maybe(authors.randomElement(using: &random)!, &random)
            var title = strings.randomElement(using: &random)!
            while !titlesAndAuthors.insert("\(title)|\(author.map { "\($0.objectID)" } ?? "")").inserted { title = strings.randomElement(using: &random)! }
            try book.setValue(title, forKey: "title")
            try book.setValue(author, forKey: "author")
            try book.setValue(maybe(strings.randomElement(using: &random)!, &random), forKey: "notes")
            try book.setValue(maybe(String(format: "0-%08d-X", number * 37 % 1000), &random), forKey: "isbn")
            try book.setValue(Int64.random(in: -3...3, using: &random), forKey: "fileSize")
            try book.setValue(Int16.random(in: 0...5, using: &random), forKey: "pageCount")
            try book.setValue(maybe(Int32.random(in: -2...5, using: &random), &random), forKey: "wordCount")
            try book.setValue(Bool.random(using: &random), forKey: "isAvailable")
            try book.setValue(maybe(Decimal(Int.random(in: 0...12, using: &random)) / 4, &random), forKey: "price")
            try book.setValue(maybe(Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -3...3, using: &random)) * 86_400), &random), forKey: "published")
            try book.setValue(maybe(Float(Int.random(in: 0...10, using: &random)) / 2, &random), forKey: "rating")
            try book.setValue(maybe(Double(Int.random(in: -4...4, using: &random)) / 2, &random), forKey: "weight")
            try book.setValue(maybe(urls.randomElement(using: &random)!, &random), forKey: "website")
            try book.setValue(maybe(uuids.randomElement(using: &random)!, &random), forKey: "identifier")
            try book.setValue(maybe(blobs.randomElement(using: &random)!, &random), forKey: "cover")
            try book.setValue(maybe(shelves.randomElement(using: &random)!, &random), forKey: "shelf")
            if book.entity.name == "Audiobook" { try book.setValue(maybe(authors.randomElement(using: &random)!, &random), forKey: "narrator") }
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let chapter = try context.insertObject(entityName: "Chapter")
                try chapter.setValue(Int16.random(in: 0...4, using: &random), forKey: "index")
                try chapter.setValue(maybe(strings.randomElement(using: &random)!, &random), forKey: "title")
                try chapter.setValue(book, forKey: "book")
            }
            try book.setValue(tags.filter { _ in Int.random(in: 0..<3, using: &random) == 0 }, forKey: "tags")
            try book.setValue(Set(readers.filter { _ in Bool.random(using: &random) }), forKey: "recommendedBy")
            books.append(book)
        }
        for book in books {
            try book.setValue(Set(books.filter { _ in Int.random(in: 0..<25, using: &random) == 0 }), forKey: "related")
        }
        for shelf in shelves { try shelf.setValue(maybe(books.randomElement(using: &random)!, &random), forKey: "featured") }
        try context.save()
        return Objects(authors: authors.map(\.objectID), books: books.map(\.objectID), shelves: shelves.map(\.objectID), tags: tags.map(\.objectID))
    }
}
