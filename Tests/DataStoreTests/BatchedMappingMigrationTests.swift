import DataModel
@testable import DataStore
import Foundation
import Testing

/// A mapping migration of more objects than one batch: objects are made, saved and linked a batch
/// at a time, links reach objects of other batches, the filter predicate chooses the sources, and
/// the rules are checked once every object is linked, as Core Data checks them.
@Suite struct BatchedMappingMigrationTests {
    typealias S = MigrationSupport
    typealias M = MappingModelMigrationTests

    /// Version 2 with a book's writer required: a book is valid only once the relationship stage
    /// has linked it, after its batch was saved.
    static let v2 = S.version("V2", [
        Entity("Book", attributes: [Attribute("name", .string, isOptional: true), Attribute("label", .string, isOptional: true)], relationships: [
            Relationship("writer", destination: "Writer", inverseName: "works", inverseEntityName: "Writer"),
        ]),
        Entity("Writer", attributes: [Attribute("fullName", .string), Attribute("isActive", .boolean, isOptional: true)], relationships: [
            Relationship("works", destination: "Book", inverseName: "writer", inverseEntityName: "Book", isToMany: true, isOptional: true),
        ]),
    ])

    /// The test's mapping, whose books are those with an author and more than 10 pages.
    static let mapping: MappingModel = {
        var mapping = M.mapping
        mapping.entityMappings[1].filterPredicate = "author != nil AND pages > 10"
        return mapping
    }()

    /// Batches of 100 objects, so that a few thousand cross many of them.
    static let batchSize = 100
    static let authors = batchSize * 25 / 2

    static func options(_ mapping: MappingModel = mapping) -> MigrationOptions {
        var options = MigrationOptions(mappingModels: [mapping], migrationPolicies: M.options.migrationPolicies)
        options.mappingBatchSize = batchSize
        return options
    }

    /// Authors `Author 0`… with three books each, written in reverse so that an author's books
    /// lie in other batches than the author: the first of 11 pages, the second and third of 100
    /// and 200; and a book without author.
    static func seeded() throws -> URL {
        try S.store(M.v1) { context in
            var authors: [ManagedObject] = []
            for number in 0..<Self.authors {
                let author = try context.insertObject(entityName: "Author")
                try author.setValue("Author \(number)", forKey: "name")
                authors.append(author)
            }
            for author in authors.reversed() {
                for pages in [11, 100, 200] {
                    let book = try context.insertObject(entityName: "Book")
                    try book.setValue("\(author.value(forKey: "name") as! String), \(pages)", forKey: "title")
                    try book.setValue(pages, forKey: "pages")
                    try book.setValue(author, forKey: "author")
                }
            }
            let orphan = try context.insertObject(entityName: "Book")
            try orphan.setValue("Orphan", forKey: "title")
            try orphan.setValue(300, forKey: "pages")
        }
    }

    @Test func objectsOfManyBatches_areMadeLinkedAndCheckedAsOne() throws {
        let url = try Self.seeded()
        let store = try S.open(url, Self.v2, versions: [M.v1, Self.v2], migration: Self.options())
        let writers = try S.objects(store, "Writer", by: "fullName")
        #expect(writers.count == Self.authors)
        let books = try S.objects(store, "Book")
        // The orphan and every book of 10 pages or fewer stayed behind; every other one is linked.
        #expect(books.count == Self.authors * 3)
        for writer in writers {
            let name = writer.value(forKey: "fullName") as! String
            #expect(S.names(writer.value(forKey: "works")) == ["\(name), 100", "\(name), 11", "\(name), 200"].sorted())
        }
        #expect(Set(books.map { $0.value(forKey: "label") as? String }) == ["11 pages", "100 pages", "200 pages"])
        #expect(try S.integrity(url) == "ok")
    }

    @Test func anObjectLeftInvalid_failsTheMigrationOnceAllAreLinked_andTheStoreStaysAsItWas() throws {
        let url = try Self.seeded()
        let bytes = try S.pages(url)
        // Without the filter, the orphan book has no writer: checked at the end, it fails.
        var unfiltered = Self.mapping
        unfiltered.entityMappings[1].filterPredicate = nil
        #expect {
            try S.open(url, Self.v2, versions: [M.v1, Self.v2], migration: Self.options(unfiltered))
        } throws: { error in
            guard case StoreError.migration(.custom(let message)) = error else { return false }
            return message.hasPrefix("the migrated objects do not save") && message.contains("writer")
        }
        #expect(try S.pages(url) == bytes)
    }

    /// An object that broke a rule and was then deleted is not judged: a policy's validation
    /// stage removes the books left without a writer, and the migration goes through.
    @Test func anObjectDeletedAfterBreakingARule_isNotJudged() throws {
        struct DropsOrphans: MigrationPolicy {
            let books = M.BookPolicy()
            func createDestinationInstances(for source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
                try books.createDestinationInstances(for: source, in: mapping, manager: manager)
            }
            func value(ofFunction selector: String, arguments: [Any?], manager: MigrationManager) throws -> Any? {
                try books.value(ofFunction: selector, arguments: arguments, manager: manager)
            }
            func performCustomValidation(for mapping: EntityMapping, manager: MigrationManager) throws {
                var orphans = FetchRequest<ManagedObject>(entityName: "Book")
                orphans.predicate = try ObjectPredicate(format: "writer == nil")
                for book in try manager.destinationContext.fetch(orphans) { manager.destinationContext.delete(book) }
            }
        }
        let url = try Self.seeded()
        var unfiltered = Self.mapping
        unfiltered.entityMappings[1].filterPredicate = nil
        var options = Self.options(unfiltered)
        options.migrationPolicies = ["Shelf.BookPolicy": { DropsOrphans() }]
        let store = try S.open(url, Self.v2, versions: [M.v1, Self.v2], migration: options)
        #expect(try S.objects(store, "Book").count == Self.authors * 3)
    }

    @Test func aFilterPredicateThatDoesNotRead_isNamed() throws {
        let url = try Self.seeded()
        var broken = Self.mapping
        broken.entityMappings[1].filterPredicate = "pages >"
        #expect {
            try S.open(url, Self.v2, versions: [M.v1, Self.v2], migration: Self.options(broken))
        } throws: { error in
            guard case StoreError.migration(.custom(let message)) = error else { return false }
            return message.hasPrefix("BookToBook: the filter predicate 'pages >' does not read")
        }
    }
}
