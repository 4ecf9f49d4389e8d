import Foundation
import Testing

/// `datamodel-gen new-mapping`, and `generate` compiling the mapping models beside a bundle.
@Suite struct NewMappingCommandTests {
    /// A copy of the ReadingList example's two-version bundle in a folder of its own.
    static func bundleCopy() throws -> (folder: URL, bundle: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("new-mapping-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let bundle = folder.appendingPathComponent("ReadingList.xcdatamodeld")
        try FileManager.default.copyItem(atPath: "Examples/ReadingList/Sources/ReadingList/Models/ReadingList.xcdatamodeld", toPath: bundle.path)
        return (folder, bundle.path)
    }

    @Test func aNewMapping_lintsClean_andGenerateCompilesItWithThePolicysKeys() throws {
        let (folder, bundle) = try Self.bundleCopy()
        let mapping = folder.appendingPathComponent("Migrations/V1toV2.xcmappingmodel").path
        let written = try CLITests.run(
            "new-mapping", bundle, "--from", "ReadingList 1", "--to", "ReadingList 2", "-o", mapping, "--policy", "BookToBook=BookMigrationPolicy")
        #expect(written.status == 0, "\(written.standardError)")
        #expect(written.standardOutput == "\(mapping): ReadingList 1 → ReadingList 2, 1 entity mappings\n")

        let lint = try CLITests.run("lint-mapping", mapping, "--model", bundle)
        #expect(lint.status == 0, "\(lint.standardError)")
        #expect(lint.standardError.isEmpty)

        let output = folder.appendingPathComponent("Generated").path
        let generated = try CLITests.run("generate", bundle, "-o", output)
        #expect(generated.status == 0, "\(generated.standardError)")
        let text = try String(contentsOfFile: output + "/ReadingList.swift", encoding: .utf8)
        #expect(text.contains("        versions: versions,\n        mappingModels: mappingModels\n    )"))
        #expect(text.contains(#"path: "V1toV2.xcmappingmodel","#))
        #expect(text.contains(#"sourceModelPath: "ReadingList.xcdatamodeld/ReadingList 1.xcdatamodel","#))
        #expect(text.contains(#"valueExpression: "$source.year","#), "the renamed attribute reads its old name")
        #expect(text.contains(#"migrationPolicyClassName: "BookMigrationPolicy","#))
        #expect(text.contains("    public enum Migrations {\n"))
        #expect(text.contains(#"public static let year = AttributeKey<ManagedObject, Int16>("year", slot: 2)"#))
        #expect(text.contains(#"public static let author = ToOneKey<ManagedObject, ManagedObject>("author", slot: 0)"#))
    }

    @Test func aPolicyOrExpressionThatNamesNothing_writesNothing() throws {
        let (folder, bundle) = try Self.bundleCopy()
        let mapping = folder.appendingPathComponent("V1toV2.xcmappingmodel").path
        let unknownMapping = try CLITests.run(
            "new-mapping", bundle, "--from", "ReadingList 1", "--to", "ReadingList 2", "-o", mapping, "--policy", "AuthorToAuthor=AuthorPolicy")
        #expect(unknownMapping.status != 0)
        #expect(unknownMapping.standardError.contains("--policy names AuthorToAuthor, which is not one of the entity mappings: BookToBook"))

        let unknownKey = try CLITests.run(
            "new-mapping", bundle, "--from", "ReadingList 1", "--to", "ReadingList 2", "-o", mapping, "--expression", "BookToBook.title=$source.name")
        #expect(unknownKey.status == 1)
        #expect(unknownKey.standardError.contains("nothing written: the mapping model has errors"))
        #expect(!FileManager.default.fileExists(atPath: mapping))
    }

    @Test func generate_leavesOutAMappingOfOtherVersions_andWarnsWhenItWasNamed() throws {
        let (folder, bundle) = try Self.bundleCopy()
        let mapping = folder.appendingPathComponent("Backwards.xcmappingmodel").path
        let written = try CLITests.run("new-mapping", bundle, "--from", "ReadingList 2", "--to", "ReadingList 1", "-o", mapping)
        #expect(written.status == 0, "\(written.standardError)")
        let output = folder.appendingPathComponent("Generated").path
        let found = try CLITests.run("generate", bundle, "-o", output)
        #expect(found.status == 0)
        #expect(found.standardError.isEmpty, "one found beside the bundle may be another model's")
        #expect(try !String(contentsOfFile: output + "/ReadingList.swift", encoding: .utf8).contains("mappingModels"))
        let named = try CLITests.run("generate", bundle, "-o", output, "--mapping", mapping)
        #expect(named.standardError.contains("warning: the mapping model connects no earlier version of \(bundle) to a later one; it is not compiled"))
    }

    @Test func anExistingMappingModel_isReplacedOnlyWithForce_andOneVersionIsNoMapping() throws {
        let (folder, bundle) = try Self.bundleCopy()
        let mapping = folder.appendingPathComponent("V1toV2.xcmappingmodel").path
        let arguments = ["new-mapping", bundle, "--from", "ReadingList 1", "--to", "ReadingList 2", "-o", mapping]
        #expect(try CLITests.run(arguments).status == 0)
        let again = try CLITests.run(arguments)
        #expect(again.status != 0)
        #expect(again.standardError.contains("exists; pass --force to replace it"))
        #expect(try CLITests.run(arguments + ["--force", "--policy", "BookToBook=BookPolicy"]).status == 0)
        #expect(try String(contentsOfFile: mapping + "/xcmapping.xml", encoding: .utf8).contains(">BookPolicy<"))

        let same = try CLITests.run("new-mapping", bundle, "--from", "ReadingList 1", "--to", "ReadingList 1", "-o", folder.appendingPathComponent("Same.xcmappingmodel").path)
        #expect(same.status != 0)
        #expect(same.standardError.contains("--from and --to name the same version"))
    }

    @Test func generate_warnsOfAnUnreadableMappingModelBesideTheBundle_andGoesOn() throws {
        let (folder, bundle) = try Self.bundleCopy()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Empty.xcmappingmodel"), withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("Generated").path
        let run = try CLITests.run("generate", bundle, "-o", output)
        #expect(run.status == 0)
        #expect(run.standardError.contains("Empty.xcmappingmodel/xcmapping.xml: warning: the bundle has no readable xcmapping.xml; the mapping model is not compiled"))
    }
}
