import DataModel
import DataModelParser
@testable import DataStore
import Foundation
import GRDB
import Testing
import TestSupport

/// Mapping models run as Core Data runs them: entity mappings in order, value expressions with
/// `$source`, the manager's table of made objects and policies' methods, relationships linked once
/// every object exists; a failure leaves the store as it was.
@Suite struct MappingModelMigrationTests {
    typealias S = MigrationSupport

    static let v1 = S.version("V1", [
        Entity("Author", attributes: [Attribute("name", .string, isOptional: true)], relationships: [
            Relationship("books", destination: "Book", inverseName: "author", inverseEntityName: "Book", isToMany: true, isOptional: true),
        ]),
        Entity("Book", attributes: [Attribute("title", .string, isOptional: true), Attribute("pages", .integer32, isOptional: true)], relationships: [
            Relationship("author", destination: "Author", inverseName: "books", inverseEntityName: "Author", isOptional: true),
        ]),
    ])
    /// Author becomes Writer (`fullName`), Book's title becomes `name`, its pages a string label.
    static let v2 = S.version("V2", [
        Entity("Book", attributes: [Attribute("name", .string, isOptional: true), Attribute("label", .string, isOptional: true)], relationships: [
            Relationship("writer", destination: "Writer", inverseName: "works", inverseEntityName: "Writer", isOptional: true),
        ]),
        Entity("Writer", attributes: [Attribute("fullName", .string), Attribute("isActive", .boolean, isOptional: true)], relationships: [
            Relationship("works", destination: "Book", inverseName: "writer", inverseEntityName: "Book", isToMany: true, isOptional: true),
        ]),
    ])

    static let here = DataModel.SourceLocation(file: "V1ToV2.xcmappingmodel/xcmapping.xml")

    static let mapping = MappingModel(path: "V1ToV2.xcmappingmodel/xcmapping.xml", sourceModelPath: "V1.xcdatamodel", destinationModelPath: "V2.xcdatamodel", entityMappings: [
        EntityMapping(name: "AuthorToWriter", sourceEntityName: "Author", destinationEntityName: "Writer", attributeMappings: [
            PropertyMapping(name: "fullName", valueExpression: "$source.name", location: here),
            PropertyMapping(name: "isActive", valueExpression: "YES", location: here),
        ], relationshipMappings: [PropertyMapping(name: "works", location: here)], location: here),
        EntityMapping(name: "BookToBook", sourceEntityName: "Book", destinationEntityName: "Book", migrationPolicyClassName: "Shelf.BookPolicy", attributeMappings: [
            PropertyMapping(name: "name", valueExpression: "$source.title", location: here),
            PropertyMapping(name: "label", valueExpression: #"FUNCTION($entityPolicy, "labelForPages:", $source.pages)"#, location: here),
        ], relationshipMappings: [
            PropertyMapping(name: "writer", valueExpression: #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "AuthorToWriter", $source.author)"#, location: here),
        ], location: here),
    ], location: here)

    /// A port of an `NSEntityMigrationPolicy` subclass: a method value expressions call, and the
    /// default creation followed by a change, as an override calling `super` does.
    struct BookPolicy: MigrationPolicy {
        func createDestinationInstances(for source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
            let book = try manager.createDestinationInstanceByDefault(for: source, in: mapping)
            if (source.value(forKey: "title") as? String)?.isEmpty ?? true { try book.setValue("Untitled", forKey: "name") }
        }

        func value(ofFunction selector: String, arguments: [Any?], manager: MigrationManager) throws -> Any? {
            guard selector == "labelForPages:" else { throw MigrationError.custom(message: "no method \(selector)") }
            return (arguments.first as? Int64).map { "\($0) pages" }
        }
    }

    static let options = MigrationOptions(mappingModels: [mapping], migrationPolicies: ["Shelf.BookPolicy": { BookPolicy() }])

    /// A store of Ursula with two books, and a book without author or title.
    static func seeded() throws -> URL {
        try S.store(v1, seed: seed)
    }

    /// Ursula with two books, a book without author or title.
    static func seed(_ context: ObjectContext) throws {
        let ursula = try context.insertObject(entityName: "Author")
        try ursula.setValue("Ursula K. Le Guin", forKey: "name")
        for (title, pages, author) in [("Lavinia", 279, ursula as ManagedObject?), ("The Dispossessed", 387, ursula), ("", 12, nil)] {
            let book = try context.insertObject(entityName: "Book")
            try book.setValue(title, forKey: "title")
            try book.setValue(pages, forKey: "pages")
            try book.setValue(author, forKey: "author")
        }
    }

    /// The migrated store reads as the mapping makes it: names, labels and links.
    static func expectMigrated(_ store: PersistentStore) throws {
        let books = try S.objects(store, "Book")
        #expect(books.map { $0.value(forKey: "name") as? String } == ["Lavinia", "The Dispossessed", "Untitled"])
        #expect(books.map { $0.value(forKey: "label") as? String } == ["279 pages", "387 pages", "12 pages"])
        #expect(books.map { S.names($0.value(forKey: "writer"), key: "fullName") } == [["Ursula K. Le Guin"], ["Ursula K. Le Guin"], []])
        let writers = try S.objects(store, "Writer", by: "fullName")
        #expect(writers.map { $0.value(forKey: "isActive") as? Bool } == [true])
        #expect(S.names(writers[0].value(forKey: "works")) == ["Lavinia", "The Dispossessed"])
    }

    @Test func aMappingModel_makesEveryObjectAgain_withItsExpressionsAndLinks() throws {
        let url = try Self.seeded()
        let store = try S.open(url, Self.v2, versions: [Self.v1, Self.v2], migration: Self.options)
        try Self.expectMigrated(store)
        #expect(try S.integrity(url) == "ok")
        // The file is at version 2 now: it opens without migrating.
        #expect(try S.objects(PersistentStore(url: url, model: ManagedObjectModel(model: Self.v2), migration: .disabled), "Book").count == 3)
    }

    /// As generated code compiles them: the model carries the mapping, the options only the policy.
    @Test func aMappingModelCompiledWithTheModel_runsWithoutBeingNamed() throws {
        let url = try Self.seeded()
        let model = ManagedObjectModel(model: Self.v2, versions: [Self.v1, Self.v2], mappingModels: [Self.mapping])
        let steps = try PersistentStore.migrationSteps(at: url, model: model)
        #expect(steps.count == 1)
        #expect(steps.first?.description.hasPrefix("V1 → V2 by the mapping model V1ToV2.xcmappingmodel (") == true)
        let store = try PersistentStore(url: url, model: model, migration: MigrationOptions(migrationPolicies: Self.options.migrationPolicies))
        try Self.expectMigrated(store)
    }

    @Test func aPolicyTheAppDoesNotProvide_stopsTheMigrationBeforeAnythingChanges() throws {
        let url = try Self.seeded()
        let bytes = try S.pages(url)
        #expect(throws: StoreError.migration(.missingMigrationPolicy(className: "Shelf.BookPolicy", entityMapping: "BookToBook"))) {
            try S.open(url, Self.v2, versions: [Self.v1, Self.v2], migration: MigrationOptions(mappingModels: [Self.mapping]))
        }
        #expect(try S.pages(url) == bytes)
    }

    @Test func aFailingPolicyOrAnObjectThatDoesNotSave_leavesTheStoreAsItWas() throws {
        struct Failing: MigrationPolicy {}
        let url = try Self.seeded()
        let bytes = try S.pages(url)
        // The default policy has no labelForPages:.
        #expect(throws: StoreError.self) {
            try S.open(url, Self.v2, versions: [Self.v1, Self.v2], migration: MigrationOptions(
                mappingModels: [Self.mapping], migrationPolicies: ["BookPolicy": { Failing() }]))
        }
        #expect(try S.pages(url) == bytes)
        // A Writer's required fullName left empty: the new store does not save.
        var unnamed = Self.mapping
        unnamed.entityMappings[0].attributeMappings[0].valueExpression = "nil"
        #expect {
            try S.open(url, Self.v2, versions: [Self.v1, Self.v2], migration: MigrationOptions(mappingModels: [unnamed], migrationPolicies: Self.options.migrationPolicies))
        } throws: { error in
            guard case StoreError.migration(.custom(let message)) = error else { return false }
            return message.hasPrefix("the migrated objects do not save")
        }
        #expect(try S.pages(url) == bytes)
        #expect(try S.objects(PersistentStore(url: url, model: ManagedObjectModel(model: Self.v1)), "Book").count == 3)
    }

    /// CoreStore's demo mapping, read from its `.xcmappingmodel`, with a port of its policy: the
    /// default creation, then two new Booleans set (at random in the app; here from `dnaCode`, so
    /// that the test can tell).
    @Test(.enabled(if: CorpusStore.isAvailable, "needs ../shared/corpus"))
    func aCorpusMappingModel_runsWithAPortOfItsPolicy() throws {
        struct EvolutionPolicy: MigrationPolicy {
            func createDestinationInstances(for source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
                try manager.createDestinationInstanceByDefault(for: source, in: mapping)
                let code = source.value(forKey: "dnaCode") as? Int64 ?? 0
                for creature in manager.destinationInstances(forEntityMappingNamed: mapping.name, sourceInstances: [source]) {
                    try creature.setValue(code % 2 == 0, forKey: "hasVertebrae")
                    try creature.setValue(code > 100, forKey: "hasTail")
                }
            }
        }
        let folder = CorpusStore.corpus.appendingPathComponent("mappings/CoreStore__Advanced.EvolutionDemo.V2.FromV1")
        let parsed = try MappingModelParser.load(folder.appendingPathComponent("Advanced.EvolutionDemo.V2.FromV1.xcmappingmodel").path)
        let bundle = folder.appendingPathComponent("Advanced.EvolutionDemo.V1.xcdatamodeld").path
        let versions = try ModelLoader().loadVersions(bundle).versions.map(\.model)
        let url = try S.store(versions[0]) { context in
            for (code, flagella) in [(7, 3), (200, 1)] {
                let creature = try context.insertObject(entityName: "Creature")
                try creature.setValue(code, forKey: "dnaCode")
                try creature.setValue(flagella, forKey: "numberOfFlagella")
            }
        }
        let store = try S.open(url, versions[1], versions: versions, migration: MigrationOptions(
            mappingModels: [parsed.mappingModel], migrationPolicies: ["Advanced_EvolutionDemo_V2_FromV1MigrationPolicy": { EvolutionPolicy() }]))
        let creatures = try store.newContext().fetch(FetchRequest<ManagedObject>(entityName: "Creature"))
            .sorted { ($0.value(forKey: "dnaCode") as? Int64 ?? 0) < ($1.value(forKey: "dnaCode") as? Int64 ?? 0) }
        #expect(creatures.map { $0.value(forKey: "numberOfFlippers") as? Int64 } == [3, 1])
        #expect(creatures.map { $0.value(forKey: "hasHead") as? Bool } == [true, true])
        #expect(creatures.map { $0.value(forKey: "hasVertebrae") as? Bool } == [false, true])
        #expect(creatures.map { $0.value(forKey: "hasTail") as? Bool } == [false, true])
    }
}
