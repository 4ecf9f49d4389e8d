import DataModel
import DataModelParser
import Foundation
import Testing

/// `ModelDiagram`: goldens of the sample models in both formats, and, over the corpus, every
/// entity, subentity and relationship drawn, each relationship pair exactly once.
@Suite struct ModelDiagramTests {
    @Test(arguments: SampleModelTests.samples, ModelDiagram.Format.allCases)
    func sampleModel_matchesGolden(sample: (String, String?), format: ModelDiagram.Format) throws {
        let (bundle, version) = sample
        let path = TestPaths.packageRoot.appendingPathComponent("Models/\(bundle).xcdatamodeld").path
        let model = try ModelLoader().load(path, version: version).model
        let name = version ?? bundle
        try expectGolden(ModelDiagram.text(of: model, format: format), "Diagrams/\(name).\(format == .mermaid ? "mmd" : "dot")")
    }

    @Test(.enabled(if: TestPaths.hasCorpus, "needs ../shared/corpus"))
    func corpusModels_drawEveryEntityAndEachRelationshipOnce() throws {
        let models = try FileManager.default.contentsOfDirectory(atPath: TestPaths.corpus.appendingPathComponent("models").path).sorted()
        #expect(models.count >= 38)
        for file in models {
            let model = try ModelLoader().load(TestPaths.corpus.appendingPathComponent("models/\(file)").path).model
            let mermaid = ModelDiagram.text(of: model, format: .mermaid).split(separator: "\n").map(String.init)
            let dot = ModelDiagram.text(of: model, format: .dot).split(separator: "\n").map(String.init)

            for entity in model.entities {
                #expect(mermaid.contains { $0 == "    class \(entity.name)" || $0 == "    class \(entity.name) {" }, "\(file): \(entity.name)")
                #expect(dot.contains { $0.hasPrefix("    \"\(entity.name)\" [label=<") }, "\(file): \(entity.name)")
                if let parent = entity.parentName {
                    #expect(mermaid.contains("    \(parent) <|-- \(entity.name)"), "\(file): \(entity.name)")
                    #expect(dot.contains("    \"\(entity.name)\" -> \"\(parent)\" [arrowhead=empty];"), "\(file): \(entity.name)")
                }
            }

            // A relationship whose inverse exists shares its line with it; one without has its own.
            var pairs = 0
            var alone = 0
            for entity in model.entities {
                for relationship in entity.relationships {
                    let inverseEntity = model.entity(named: relationship.inverseEntityName ?? relationship.destinationEntityName)
                    if let name = relationship.inverseName, inverseEntity?.relationships.contains(where: { $0.name == name }) == true {
                        pairs += 1
                    } else {
                        alone += 1
                    }
                }
            }
            let selfInverse = model.entities.flatMap { entity in
                entity.relationships.filter { $0.inverseName == $0.name && $0.destinationEntityName == entity.name }
            }.count
            let expectedLines = (pairs - selfInverse) / 2 + selfInverse + alone
            #expect(mermaid.filter { $0.contains(" -- \"") || $0.contains(" --> \"") }.count == expectedLines, "\(file)")
            #expect(dot.filter { $0.contains("headlabel=") }.count == expectedLines, "\(file)")
        }
    }

    @Test func multiplicity_followsTheRelationshipsCounts() throws {
        let xml = """
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="A" representedClassName="A">
                    <relationship name="one" maxCount="1" deletionRule="Nullify" destinationEntity="B"/>
                    <relationship name="maybe" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B"/>
                    <relationship name="many" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="B"/>
                    <relationship name="some" toMany="YES" deletionRule="Nullify" destinationEntity="B"/>
                    <relationship name="few" toMany="YES" minCount="2" maxCount="5" deletionRule="Nullify" destinationEntity="B"/>
                </entity>
                <entity name="B" representedClassName="B"/>
            </model>
            """
        let model = try ModelParser.parse(Array(xml.utf8), path: "A.xcdatamodel/contents").model
        #expect(ModelDiagram.text(of: model, format: .mermaid) == """
            classDiagram
                class A
                class B
                A --> "1" B : one
                A --> "0..1" B : maybe
                A --> "*" B : many
                A --> "1..*" B : some
                A --> "2..5" B : few

            """)
    }
}
