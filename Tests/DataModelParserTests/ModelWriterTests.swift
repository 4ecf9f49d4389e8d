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
            // Composites, fetched properties and templates are refused, never left out.
            #expect(!model.composites.isEmpty || !model.fetchRequestTemplates.isEmpty || model.entities.contains { !$0.fetchedProperties.isEmpty })
            return
        }
        let reread = try ModelParser.parse(Array(contents.utf8), path: "Written.xcdatamodel/contents").model.withoutSourceDetails
        #expect(reread.entities == model.entities, "\(path)")
        #expect(reread.configurations == model.configurations)
        #expect(reread.header == model.header)
    }

    @Test func whatTheWriterDoesNotWrite_isRefused() throws {
        var entity = Entity("Book", attributes: [Attribute("title", .string)])
        entity.fetchedProperties = [FetchedProperty(name: "same", fetchRequest: .init(name: "same", entityName: "Book", predicate: nil, location: .generated), location: .generated)]
        #expect(throws: ModelWriter.Unsupported.self) { try ModelWriter.contents(of: Model("M.xcdatamodel", entities: [entity])) }
    }

    @Test func valuesAreEscaped() throws {
        var attribute = Attribute("note", .string, isOptional: true, defaultValue: "a \"quoted\" <value> & more\nline")
        attribute.userInfo = UserInfo([UserInfo.Entry(key: "k&", value: "<v>", location: .generated)])
        let model = Model("M.xcdatamodel", entities: [Entity("Book", attributes: [attribute])])
        let reread = try ModelParser.parse(Array(try ModelWriter.contents(of: model).utf8), path: "M.xcdatamodel/contents").model.withoutSourceDetails
        #expect(reread.entities == model.withoutSourceDetails.entities)
    }
}
