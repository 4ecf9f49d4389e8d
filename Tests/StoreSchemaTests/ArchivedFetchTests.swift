import DataModel
import DataModelParser
import Foundation
import GRDB
import PropertyLists
@testable import StoreSchema
import Testing

/// Fetched properties and fetch request templates read from archives Apple's tools wrote: a model
/// compiled by Xcode's `momc` against the XML it was compiled from, and a store whose model was
/// built in code. The files, their sources and licences are listed in `Fixtures/ThirdParty`.
@Suite struct ArchivedFetchTests {
    static let thirdParty = TestPaths.fixtures.appendingPathComponent("ThirdParty")

    static func compiledAndWritten() throws -> (compiled: Model, written: Model) {
        let folder = thirdParty.appendingPathComponent("SwiftGen")
        let compiled = try ModelCache.decode(
            compiledModel: Array(Data(contentsOf: folder.appendingPathComponent("Model 2.mom"))), path: "Model 2.xcdatamodel")
        let xml = folder.appendingPathComponent("Model 2.xcdatamodel/contents")
        let written = try ModelParser.parse(Array(Data(contentsOf: xml)), path: xml.path).model.withoutSourceDetails
        return (compiled, written)
    }

    @Test func aCompiledModel_holdsTheTemplatesAndFetchedPropertiesOfItsXML() throws {
        let (compiled, written) = try Self.compiledAndWritten()
        #expect(ModelVersionHashes(model: compiled).entitiesDiffering(from: ModelVersionHashes(model: written)) == [])

        // Setting a request's result type changes two of its settings: Core Data leaves pending
        // changes out of dictionary results and property values out of object-ID results.
        var templates = written.fetchRequestTemplates
        for index in templates.indices {
            if templates[index].resultType == .dictionaries { templates[index].includesPendingChanges = false }
            if templates[index].resultType == .managedObjectIDs { templates[index].includesPropertyValues = false }
        }
        #expect(templates.map(\.name) == ["DictionaryFetchRequest", "ObjectFetchRequest", "ObjectIDFetchRequest"])
        #expect(compiled.fetchRequestTemplates == templates)

        // Xcode writes the constant `true` where the archive keeps a Boolean, which reads back as YES.
        let fetched = try #require(written.entity(named: "MainEntity")?.fetchedProperties.first)
        #expect(fetched.fetchRequest.predicate == "true == true")
        var expected = fetched
        expected.fetchRequest.predicate = "YES == YES"
        #expect(compiled.entity(named: "MainEntity")?.fetchedProperties == [expected])
        #expect(compiled.entities.filter { $0.name != "MainEntity" }.flatMap(\.fetchedProperties).isEmpty)
    }

    /// `extract-model`'s path: the decoded model written as XML parses back to itself.
    @Test func aCompiledModelWrittenAsXML_readsBackAsItself() throws {
        let (compiled, _) = try Self.compiledAndWritten()
        let contents = try ModelWriter.contents(of: compiled)
        let reread = try ModelParser.parse(Array(contents.utf8), path: "Extracted.xcdatamodel/contents").model.withoutSourceDetails
        #expect(reread.entities == compiled.withoutSourceDetails.entities)
        #expect(reread.fetchRequestTemplates == compiled.fetchRequestTemplates)
    }

    /// A store whose model was made in code: a fetched property with an order and one whose
    /// predicate reads the property's user info, as the app's source declares them.
    @Test func aStoresCache_holdsFetchedPropertiesWithTheirOrder() throws {
        let blob = try DefaultObjectTests.modelCache()
        let archive = try KeyedArchive(binaryPropertyList: RawDeflate.inflate(Array(blob)))
        var fetches: [String: ArchivedFetch] = [:]
        for property in archive.objects(ofClass: "NSFetchedPropertyDescription") {
            let name = try #require(try property.value(forKey: "NSPropertyName").string)
            let request = try #require(try property.value(forKey: "NSFetchRequest").object)
            fetches[name] = try ArchivedFetch(request, entityName: property.value(forKey: "_NSFetchRequestEntityName").string, of: name)
        }
        #expect(fetches.keys.sorted() == ["favFeedbacks", "feedbacks"])
        let all = try #require(fetches["feedbacks"]), favorites = try #require(fetches["favFeedbacks"])
        #expect(all.entityName == "Feedback")
        #expect(all.predicate == "authorAlias == $FETCH_SOURCE.alias")
        #expect(all.sortDescriptors == [FetchSortDescriptor(keyPath: "rating", ascending: true, selector: "compare:")])
        #expect(all.flags == ArchivedFetch.defaultFlags && all.resultType == 0 && all.fetchLimit == 0)
        #expect(favorites.entityName == "Feedback")
        #expect(favorites.predicate == "authorAlias == $FETCH_SOURCE.alias AND comment CONTAINS[c] $FETCHED_PROPERTY.userInfo.search")
        #expect(favorites.sortDescriptors.isEmpty)
    }

    /// A model with an order cannot be written as Xcode's XML: it is refused, not written without it.
    @Test func anOrderedFetchedProperty_isNotWrittenAsXML() throws {
        var (compiled, _) = try Self.compiledAndWritten()
        let index = try #require(compiled.entities.firstIndex { $0.name == "MainEntity" })
        compiled.entities[index].fetchedProperties[0].fetchRequest.sortDescriptors = [FetchSortDescriptor(keyPath: "string")]
        #expect(throws: ModelWriter.Unsupported.self) { try ModelWriter.contents(of: compiled) }
    }
}
