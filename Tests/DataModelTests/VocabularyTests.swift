import DataModel
import Testing

@Suite struct VocabularyTests {
    @Test(arguments: [
        ("Book", nil, "Book", false), ("MyApp.Book", "MyApp", "Book", false), (".Book", nil, "Book", true),
        ("Something.We.Cannot.Handle.Type", "Something.We.Cannot.Handle", "Type", false),
    ] as [(String, String?, String, Bool)])
    func className_splitsModuleAndName(raw: String, module: String?, name: String, current: Bool) {
        let className = ClassName(raw)
        #expect(className.module == module)
        #expect(className.name == name)
        #expect(className.isInCurrentModule == current)
        #expect(className.rawValue == raw)
    }

    @Test func diagnostic_rendersLikeACompiler() {
        let located = Diagnostic.error("bad", at: SourceLocation(file: "M/contents", line: 42, column: 7))
        #expect(located.description == "M/contents:42:7: error: bad")
        #expect(Diagnostic.warning("meh", at: SourceLocation(file: "M/contents")).description == "M/contents: warning: meh")
        #expect(Diagnostic.note("see", at: SourceLocation(file: "M", line: 3)).description == "M:3: note: see")
    }

    @Test func diagnostics_sortByFileLineColumnAndKeepTies() {
        let a = Diagnostic.error("a", at: SourceLocation(file: "f", line: 2, column: 1))
        let b = Diagnostic.warning("b", at: SourceLocation(file: "f", line: 1, column: 9))
        let c = Diagnostic.error("c", at: SourceLocation(file: "f", line: 2, column: 1))
        #expect([a, b, c].sortedByLocation().map(\.message) == ["b", "a", "c"])
        #expect([a, b].containsErrors)
        #expect(![b].containsErrors)
    }

    @Test func attributeTypeCodes_matchCoreData() {
        #expect(AttributeType.allCases.map(\.code) == [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1800, 2000, 2100, 0])
        #expect(Relationship.DeleteRule.allCases.map(\.code) == [0, 1, 2, 3])
    }

    @Test func userInfo_answersWithTheLastEntryForAKey() {
        let here = SourceLocation(file: "u")
        let info = UserInfo([.init(key: "k", value: "1", location: here), .init(key: "k", value: "2", location: here)])
        #expect(info["k"] == "2")
        #expect(info["missing"] == nil)
    }
}
