import DataModel
import DataModelParser
import Foundation
import StoreSchema
import Testing

/// The DDL (with views) of the sample models and of focused fixtures, byte for byte.
@Suite struct SchemaGoldenTests {
    static let samples: [(String, String?)] = [
        ("FailedBanks", nil), ("Products", nil), ("Books", nil), ("Events", nil),
        ("Everything", "Everything 1"), ("Everything", "Everything 2"),
    ]

    static func fixtures() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: TestPaths.fixtures.path)) ?? []
        return names.filter { $0.hasSuffix(".xcdatamodel") }.map { String($0.dropLast(".xcdatamodel".count)) }.sorted()
    }

    func render(_ path: String, version: String? = nil) throws -> String {
        let loaded = try ModelLoader().load(path, version: version)
        #expect(!loaded.diagnostics.containsErrors, "\(loaded.diagnostics)")
        let schema = StoreSchema(model: loaded.model)
        return schema.sql(metadata: StoreMetadata(model: loaded.model)) + schema.viewStatements(for: loaded.model).joined(separator: "\n") + "\n"
    }

    @Test(arguments: samples)
    func sampleModel_schemaMatchesGolden(bundle: String, version: String?) throws {
        let path = TestPaths.packageRoot.appendingPathComponent("Models/\(bundle).xcdatamodeld").path
        try expectGolden(try render(path, version: version), "Models/\(version ?? bundle).sql")
    }

    @Test(arguments: fixtures())
    func fixture_schemaMatchesGolden(name: String) throws {
        try expectGolden(try render(TestPaths.fixtures.appendingPathComponent("\(name).xcdatamodel").path), "\(name).sql")
    }

    @Test func fixtures_areThere() {
        #expect(Self.fixtures().count == 5)
    }
}
