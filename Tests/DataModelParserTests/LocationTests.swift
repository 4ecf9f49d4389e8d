import DataModel
import DataModelParser
import Testing

/// Every element keeps the line and column where its start tag begins, whatever the tag contains.
@Suite struct LocationTests {
    @Test func elements_keepLineAndColumnOfTheirStartTag() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <model type="com.apple.IDECoreDataModeler.DataModel">
              <entity name="A" syncable="YES">
                  <attribute name="x&gt;y" optional="YES" attributeType="String" defaultValueString="a > b"/>
            \t<relationship
                    name="b" optional="YES" maxCount="1" deletionRule="Nullify"
                    destinationEntity="B" inverseName="a" inverseEntity="B"/>
              </entity><entity name="B"><relationship name="a" optional="YES" maxCount="1" destinationEntity="A" inverseName="b" inverseEntity="A"/></entity>
            </model>
            """
        let model = try ModelParser.parse(Array(xml.utf8), path: "L/contents").model
        #expect(model.location == SourceLocation(file: "L/contents", line: 2, column: 1))
        let a = try #require(model.entity(named: "A"))
        #expect(a.location == SourceLocation(file: "L/contents", line: 3, column: 3))
        #expect(a.attributes[0].location == SourceLocation(file: "L/contents", line: 4, column: 7))
        #expect(a.attributes[0].name == "x>y")
        #expect(a.attributes[0].defaultValue == "a > b")
        #expect(a.relationships[0].location == SourceLocation(file: "L/contents", line: 5, column: 2))
        let b = try #require(model.entity(named: "B"))
        #expect(b.location == SourceLocation(file: "L/contents", line: 8, column: 12))
        #expect(b.relationships[0].location == SourceLocation(file: "L/contents", line: 8, column: 29))
    }

    @Test func multibyteCharacters_countAsBytesInColumns() throws {
        let xml = "<model><entity name=\"Café\"/><entity name=\"Über\"/></model>"
        let model = try ModelParser.parse(Array(xml.utf8), path: "U/contents").model
        #expect(model.entities.map(\.location.column) == [8, 30])
        #expect(model.entities.map(\.name) == ["Café", "Über"])
    }

    @Test func malformedXML_pointsAtTheProblem() {
        let xml = "<model>\n  <entity name=\"A\">\n  </entiti>\n</model>"
        do {
            _ = try ModelParser.parse(Array(xml.utf8), path: "M/contents")
            Issue.record("malformed XML parsed")
        } catch {
            #expect(error.diagnostic.location.line == 3)
            #expect(error.diagnostic.message.contains("entity"))
        }
    }
}
