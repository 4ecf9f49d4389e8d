import DataModel
import DataModelParser
import Foundation
import Testing

/// The XML writer: every corpus model without what it does not write reads back, parsed again, as
/// the same model; what it does not write is refused.
@Suite struct ModelWriterTests {
    /// Every model version of the corpus that the writer takes.
    static let versions: [String] = {
        guard TestPaths.hasCorpus else { return [] }
        let folder = TestPaths.corpus.appendingPathComponent("models")
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".xcdatamodel") { found.append(folder.appendingPathComponent(path).path) }
        }
        return found.sorted()
    }()

    @Test(.enabled(if: TestPaths.hasCorpus, "../shared/corpus is absent"), arguments: versions)
    func aCorpusModel_readsBackAsItself(_ path: String) throws {
        let model = try ModelLoader().load(path).model.withoutSourceDetails
        let contents: String
        do {
            contents = try ModelWriter.contents(of: model)
        } catch {
            // Composites are refused, never left out.
            #expect(!model.composites.isEmpty, "\(path): \(error)")
            return
        }
        let reread = try ModelParser.parse(Array(contents.utf8), path: "Written.xcdatamodel/contents").model.withoutSourceDetails
        #expect(reread.entities == model.entities, "\(path)")
        #expect(reread.fetchRequestTemplates == model.fetchRequestTemplates, "\(path)")
        #expect(reread.configurations == model.configurations)
        #expect(reread.header == model.header)
    }

    /// Fetched properties and templates are written with every setting the XML can say; an order,
    /// which only a model built in code has, is refused.
    @Test func fetchesReadBack_andAnOrderIsRefused() throws {
        var entity = Entity("Book", attributes: [Attribute("title", .string)])
        var request = FetchedProperty.Request(name: "fetchedPropertyFetchRequest", entityName: "Book", predicate: "title == $FETCH_SOURCE.title", location: .generated)
        var fetched = FetchedProperty(name: "sameTitle", fetchRequest: request, location: .generated)
        fetched.userInfo = UserInfo([UserInfo.Entry(key: "search", value: "great", location: .generated)])
        entity.fetchedProperties = [fetched]
        var template = FetchRequestTemplate(name: "Recent", entityName: "Book", predicate: "title BEGINSWITH[c] $PREFIX", location: .generated)
        template.resultType = .managedObjectIDs
        template.fetchLimit = 20
        template.includesPropertyValues = false
        template.includesPendingChanges = false
        template.returnsDistinctResults = true
        let model = Model("M.xcdatamodel", entities: [entity], fetchRequestTemplates: [template])
        let reread = try ModelParser.parse(Array(try ModelWriter.contents(of: model).utf8), path: "M.xcdatamodel/contents").model.withoutSourceDetails
        #expect(reread.entities == model.withoutSourceDetails.entities)
        #expect(reread.fetchRequestTemplates == model.withoutSourceDetails.fetchRequestTemplates)

        request.sortDescriptors = [FetchSortDescriptor(keyPath: "title")]
        entity.fetchedProperties = [FetchedProperty(name: "sorted", fetchRequest: request, location: .generated)]
        #expect(throws: ModelWriter.Unsupported.self) { try ModelWriter.contents(of: Model("M.xcdatamodel", entities: [entity])) }
        template.sortDescriptors = [FetchSortDescriptor(keyPath: "title", ascending: false)]
        #expect(throws: ModelWriter.Unsupported.self) { try ModelWriter.contents(of: Model("M.xcdatamodel", fetchRequestTemplates: [template])) }
    }

    @Test func valuesAreEscaped() throws {
        var attribute = Attribute("note", .string, isOptional: true, defaultValue: "a \"quoted\" <value> & more\nline")
        attribute.userInfo = UserInfo([UserInfo.Entry(key: "k&", value: "<v>", location: .generated)])
        let model = Model("M.xcdatamodel", entities: [Entity("Book", attributes: [attribute])])
        let reread = try ModelParser.parse(Array(try ModelWriter.contents(of: model).utf8), path: "M.xcdatamodel/contents").model.withoutSourceDetails
        #expect(reread.entities == model.withoutSourceDetails.entities)
    }
}
