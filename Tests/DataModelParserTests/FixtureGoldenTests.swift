import DataModel
import DataModelParser
import Foundation
import Testing

/// Every fixture model is parsed and validated; its diagnostics (and for valid ones, its JSON dump)
/// must equal the golden files byte for byte.
@Suite struct FixtureGoldenTests {
    static func fixtures(in folder: String) -> [String] {
        let url = TestPaths.fixtures.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasSuffix(".xcdatamodel") }.map { String($0.dropLast(".xcdatamodel".count)) }.sorted()
    }

    static func load(_ folder: String, _ name: String) throws -> ModelLoader.Result {
        let url = TestPaths.fixtures.appendingPathComponent("\(folder)/\(name).xcdatamodel")
        return try ModelLoader().load(TestPaths.relativeToCurrentDirectory(url))
    }

    @Test(arguments: fixtures(in: "Valid"))
    func validFixture_dumpsToGoldenJSONWithoutErrors(name: String) throws {
        let loaded = try Self.load("Valid", name)
        #expect(!loaded.diagnostics.containsErrors, "\(loaded.diagnostics)")
        try expectGolden(try ModelJSON.string(from: loaded.model) + "\n", "Valid/\(name).json")
        try expectGolden(render(loaded.diagnostics), "Valid/\(name).diagnostics.txt")
    }

    @Test(arguments: fixtures(in: "Invalid"))
    func invalidFixture_reportsGoldenDiagnostics(name: String) throws {
        let loaded = try Self.load("Invalid", name)
        #expect(loaded.diagnostics.containsErrors)
        try expectGolden(render(loaded.diagnostics), "Invalid/\(name).diagnostics.txt")
    }

    @Test func fixtureFolders_areNotEmpty() {
        #expect(Self.fixtures(in: "Valid").count >= 4)
        #expect(Self.fixtures(in: "Invalid").count >= 7)
    }

    /// Diagnostics with the path part made independent of where the repository is checked out.
    func render(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map { diagnostic in
            var copy = diagnostic
            copy.location.file = TestPaths.relative(URL(fileURLWithPath: diagnostic.location.file))
            return copy.description + "\n"
        }.joined()
    }
}
