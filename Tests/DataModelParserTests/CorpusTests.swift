import CLibXML2
import DataModel
import DataModelParser
import Foundation
import Testing

/// Real models from public projects (`../shared/corpus`): every one parses without errors, and the
/// dump agrees with counts taken independently through libxml2's XPath engine on a DOM.
@Suite(.enabled(if: TestPaths.hasCorpus, "../shared/corpus is absent; corpus tests need it beside the repository"))
struct CorpusTests {
    /// The incoming stores beside the corpus, with their models.
    static let incomingStores = TestPaths.corpus.deletingLastPathComponent().appendingPathComponent("stores-incoming")

    /// Every `.xcdatamodel` version folder in the corpus and the incoming stores (models and the
    /// stores' models), sorted.
    static func versionFolders() -> [String] {
        var folders: [String] = []
        for root in [TestPaths.corpus, incomingStores] {
            guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { continue }
            for case let path as String in enumerator where path.hasSuffix(".xcdatamodel") {
                folders.append(root.appendingPathComponent(path).path)
            }
        }
        return folders.sorted()
    }

    /// Every model bundle or folder at the top of `corpus/models`.
    static func topLevelModels() -> [String] {
        let folder = TestPaths.corpus.appendingPathComponent("models")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".xcdatamodel") || $0.hasSuffix(".xcdatamodeld") }.sorted()
            .map { folder.appendingPathComponent($0).path }
    }

    /// The model folder or bundle of every store of both store folders.
    static func storeModels() -> [String] {
        [TestPaths.corpus.appendingPathComponent("stores"), incomingStores].flatMap { root in
            ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted().compactMap { store -> String? in
                let folder = root.appendingPathComponent(store)
                guard let version = try? String(contentsOf: folder.appendingPathComponent("model-version.txt"), encoding: .utf8) else { return nil }
                return folder.appendingPathComponent(version.trimmingCharacters(in: .whitespacesAndNewlines)).path
            }
        }
    }

    @Test func corpus_isThere() {
        #expect(Self.versionFolders().count >= 61)
        #expect(Self.topLevelModels().count >= 38)
        #expect(Self.storeModels().count == 11)
    }

    @Test(arguments: topLevelModels() + storeModels())
    func corpusModel_resolvesAndParsesWithoutErrors(path: String) throws {
        let loaded = try ModelLoader().load(path)
        let errors = loaded.diagnostics.filter(\.isError)
        #expect(errors.isEmpty, "\(errors.map(\.description).joined(separator: "\n"))")
    }

    @Test(arguments: versionFolders())
    func corpusVersion_dumpCountsEqualXPathCounts(path: String) throws {
        let loaded = try ModelLoader().load(path)
        #expect(!loaded.diagnostics.containsErrors, "\(loaded.diagnostics.filter(\.isError))")

        let dump = try JSONSerialization.jsonObject(with: try ModelJSON.data(from: loaded.model)) as! [String: Any]
        let entities = dump["entities"] as! [[String: Any]]
        let xpath = try XPathCounter(file: path + "/contents")
        #expect(entities.count == xpath.number("count(/model/entity)"))
        for (offset, entity) in entities.enumerated() {
            let step = "/model/entity[\(offset + 1)]"
            #expect(entity["name"] as? String == xpath.string("string(\(step)/@name)"))
            #expect((entity["attributes"] as! [Any]).count == xpath.number("count(\(step)/attribute)"))
            #expect((entity["relationships"] as! [Any]).count == xpath.number("count(\(step)/relationship)"))
            #expect((entity["fetchedProperties"] as! [Any]).count == xpath.number("count(\(step)/fetchedProperty)"))
        }
        #expect((dump["fetchRequestTemplates"] as! [Any]).count == xpath.number("count(/model/fetchRequest)"))
        #expect((dump["composites"] as! [Any]).count == xpath.number("count(/model/composite)"))
    }
}

/// Evaluates XPath expressions on a libxml2 DOM: an independent reading of the same file.
final class XPathCounter {
    private let document: xmlDocPtr
    private let context: xmlXPathContextPtr

    init(file: String) throws {
        guard let document = xmlReadFile(file, nil, Int32(XML_PARSE_NONET.rawValue)),
              let context = xmlXPathNewContext(document)
        else { throw CocoaError(.fileReadCorruptFile) }
        self.document = document
        self.context = context
    }

    deinit {
        xmlXPathFreeContext(context)
        xmlFreeDoc(document)
    }

    func number(_ expression: String) -> Int {
        guard let result = xmlXPathEvalExpression(expression, context) else { return -1 }
        defer { xmlXPathFreeObject(result) }
        return Int(result.pointee.floatval)
    }

    func string(_ expression: String) -> String? {
        guard let result = xmlXPathEvalExpression(expression, context) else { return nil }
        defer { xmlXPathFreeObject(result) }
        return result.pointee.stringval.map { String(cString: $0) }
    }
}
