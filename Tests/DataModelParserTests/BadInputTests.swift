import DataModel
import DataModelParser
import Foundation
import Testing
import TestSupport

/// Input that is not a usable model gets a located, typed error — never a crash, never a partial model.
@Suite struct BadInputTests {
    let sample = TestPaths.packageRoot.appendingPathComponent("Models/Books.xcdatamodeld/Books.xcdatamodel/contents")

    func parse(_ bytes: [UInt8]) -> Result<ParsedModel, ModelLoadingError> {
        Result { () throws(ModelLoadingError) in try ModelParser.parse(bytes, path: "Test/contents") }
    }

    @Test func truncatedFile_isMalformedXMLWithALocation() throws {
        let bytes = Array(try Data(contentsOf: sample))
        let result = parse(Array(bytes.prefix(bytes.count / 2)))
        guard case .failure(let error) = result else { Issue.record("truncated file parsed"); return }
        #expect(error.reason == .malformedXML)
        #expect(error.diagnostic.location.line > 1)
        #expect(error.diagnostic.location.column > 0)
        #expect(error.description.hasPrefix("Test/contents:"))
    }

    @Test func wrongRoot_isNotAModelAtTheRootElement() {
        let xml = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>\n"
        guard case .failure(let error) = parse(Array(xml.utf8)) else { Issue.record("plist parsed"); return }
        #expect(error.reason == .notAModel)
        #expect(error.description == "Test/contents:2:1: error: the root element is <plist>, not <model>: this is not a Core Data model")
    }

    /// Every predefined entity and character reference in an attribute value reads as the
    /// character it stands for, `&` included, and text that only looks like a reference once
    /// decoded stays as written.
    @Test func referencesInAttributeValues_readAsTheirCharacters() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Show" representedClassName="Show">
                    <attribute name="title" optional="YES" attributeType="String" defaultValueString="Tom &amp; Jerry &#38; &#x26; &lt;&gt; &quot;&apos; &#233;&#xE9; &amp;#38;"/>
                </entity>
                <fetchRequest name="Both" entity="Show" predicateString="title != nil &amp;&amp; title != &quot;&lt;none&gt;&quot;"/>
            </model>
            """
        let parsed = try ModelParser.parse(Array(xml.utf8), path: "Test/contents")
        let show = try #require(parsed.model.entities.first)
        #expect(show.attributes.first?.defaultValue == "Tom & Jerry & & <> \"' éé &#38;")
        #expect(parsed.model.fetchRequestTemplates.first?.predicate == "title != nil && title != \"<none>\"")
    }

    @Test func emptyFile_isALocatedError() {
        guard case .failure(let error) = parse([]) else { Issue.record("empty file parsed"); return }
        #expect(error.reason == .malformedXML)
        #expect(error.description == "Test/contents:1:1: error: the file is empty; a model's contents is an XML document whose root element is <model>")
    }

    @Test func binaryPropertyList_isNamed() {
        guard case .failure(let error) = parse(Array("bplist00\u{0}\u{1}garbage".utf8)) else { Issue.record("bplist parsed"); return }
        #expect(error.reason == .notAModel)
    }

    @Test func binaryGarbage_neverCrashesAndNeverYieldsAModel() {
        var generator = SplitMix64(seed: 0xDA7A)
        for length in [1, 2, 7, 64, 512, 4096] {
            for _ in 0..<50 {
                let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                if case .success = parse(bytes) { Issue.record("garbage of \(length) bytes parsed as a model") }
            }
        }
    }

    @Test func mutatedModels_neverCrash() throws {
        let bytes = Array(try Data(contentsOf: sample))
        var generator = SplitMix64(seed: 42)
        for _ in 0..<2_000 {
            var mutated = bytes
            for _ in 0..<(1 + Int(generator.next() % 8)) {
                let index = Int(generator.next() % UInt64(mutated.count))
                switch generator.next() % 3 {
                case 0: mutated[index] = UInt8(truncatingIfNeeded: generator.next())
                case 1: mutated.remove(at: index)
                default: mutated.insert(Array("<>\"&=/ ".utf8)[Int(generator.next() % 7)], at: index)
                }
            }
            switch parse(mutated) {
            case .success(let parsed): _ = ModelValidator().validate(parsed.model)
            case .failure(let error): #expect(error.diagnostic.isError)
            }
        }
    }

    @Test func entityReferences_areNeverExpandedFromOutside() {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE model [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
            <model><entity name="&secret;"/></model>
            """
        switch parse(Array(xml.utf8)) {
        case .failure(let error): #expect(error.reason == .malformedXML)
        case .success(let parsed): #expect(!(parsed.model.entities.first?.name.contains("root") ?? false))
        }
    }
}
