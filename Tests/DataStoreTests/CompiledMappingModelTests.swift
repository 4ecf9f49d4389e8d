import DataModel
import DataStore
import Foundation
import GeneratedReadingList
import StoreSchema
import Testing

/// A mapping model compiled with the model (`Tests/Generated/ReadingList`, generated from the
/// ReadingList example's bundle and the mapping model beside it) runs when a store of its source
/// version opens, with a policy that works through the generated keys; a stage the app names for
/// the same step runs instead.
@Suite struct CompiledMappingModelTests {
    /// Makes each book's author, named in version 1 by text, an `Author` of version 2, once per name.
    struct AuthorsPolicy: MigrationPolicy {
        typealias Keys = ReadingList.Migrations.BookToBook

        func createDestinationInstances(for source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
            let book = try manager.createDestinationInstanceByDefault(for: source, in: mapping)
            guard let name = source[Keys.Source.authorName] else { return }
            let context = manager.destinationContext
            let author = try context.fetch(FetchRequest<Author>(predicate: Author.name == name)).first ?? {
                let author = try context.insert(Author.self)
                author.name = name
                return author
            }()
            book[Keys.Destination.author] = author
        }
    }

    /// A store of version 1 with three books by two authors and one by none.
    static func storeOfVersion1() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reading-list-\(UUID().uuidString).sqlite")
        let context = try PersistentStore(url: url, model: ManagedObjectModel(model: ReadingList.Versions.readingList1)).newContext()
        for (title, author, year) in [("Emma", "Jane Austen", 1815), ("Persuasion", "Jane Austen", 1817), ("Middlemarch", "George Eliot", 1871),
                                      ("Beowulf", nil, 1000)] as [(String, String?, Int)] {
            let book = try context.insertObject(entityName: "Book")
            try book.setValue(title, forKey: "title")
            try book.setValue(author, forKey: "authorName")
            try book.setValue(year, forKey: "year")
        }
        try context.save()
        return url
    }

    @Test func openingAStoreOfTheSourceVersion_runsTheCompiledMapping_withThePolicy() throws {
        let url = try Self.storeOfVersion1()
        let steps = try PersistentStore.migrationSteps(at: url, model: ReadingList.model)
        #expect(steps.map(\.description) == ["ReadingList 1 → ReadingList 2 by the mapping model ReadingList1to2.xcmappingmodel (1 entity mapping)"])
        let store = try PersistentStore(
            url: url, model: ReadingList.model, migration: MigrationOptions(migrationPolicies: ["BookMigrationPolicy": { AuthorsPolicy() }]))
        let context = store.newContext()
        var books = Book.fetchRequest()
        books.sortDescriptors = [ObjectSortDescriptor(Book.title)]
        let read = try context.fetch(books).map { "\($0.title) \($0.published) \($0.author?.name ?? "-")" }
        #expect(read == ["Beowulf 1000 -", "Emma 1815 Jane Austen", "Middlemarch 1871 George Eliot", "Persuasion 1817 Jane Austen"])
        let authors = try context.fetch(Author.fetchRequest()).map { "\($0.name) \($0.books.count)" }.sorted()
        #expect(authors == ["George Eliot 1", "Jane Austen 2"])
    }

    @Test func withoutThePolicyItNames_theStoreStaysAtItsVersion() throws {
        let url = try Self.storeOfVersion1()
        #expect(throws: StoreError.self) { try PersistentStore(url: url, model: ReadingList.model) }
        let metadata = try PersistentStore.metadataForStore(at: url)
        #expect(metadata.versionHashes?.entityHashes == ManagedObjectModel(model: ReadingList.Versions.readingList1).versionHashes.entityHashes)
    }

    @Test func aStageTheAppNamesForTheStep_runsInsteadOfTheCompiledMapping() throws {
        let url = try Self.storeOfVersion1()
        let stage = MigrationOptions(stages: [.custom(from: "ReadingList 1", to: "ReadingList 2", didMigrate: { _ in })])
        let steps = try PersistentStore.migrationSteps(at: url, model: ReadingList.model, options: stage)
        #expect(steps.map(\.description) == ["ReadingList 1 → ReadingList 2, a custom stage"])
        let store = try PersistentStore(url: url, model: ReadingList.model, migration: stage)
        // The lightweight migration of the stage keeps the books; their author text has no place.
        #expect(try store.newContext().fetch(Book.fetchRequest()).map(\.published).sorted() == [1000, 1815, 1817, 1871])
    }
}
