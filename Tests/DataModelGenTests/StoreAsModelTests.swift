import Foundation
import Testing

/// A store file stands wherever a command takes a model: the model it carries is read, even one
/// Xcode's XML cannot hold. CoreDataPlus's store (its model made in code) has a Transformable
/// default of the app's own class, a derived count and a sorted fetched property.
@Suite struct StoreAsModelTests {
    static func copyOfFixture() throws -> URL {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("StoreSchemaTests/Fixtures/ThirdParty/CoreDataPlus/SampleModel2_V2.sqlite")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-as-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("Library.sqlite")
        try FileManager.default.copyItem(at: fixture, to: copy)
        return copy
    }

    @Test func generate_compilesTheModelAStoreCarries() throws {
        let store = try Self.copyOfFixture()
        let output = store.deletingLastPathComponent().appendingPathComponent("Generated")
        let run = try CLITests.run("generate", store.path, "-o", output.path)
        #expect(run.status == 0, "\(run.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        #expect(files == ["AuthorV2.swift", "BookV2.swift", "FeedbackV2.swift", "GraphicNovelV2.swift", "Library.swift", "PageV2.swift", "WriterV2.swift"])
        let modelFile = try String(contentsOf: output.appendingPathComponent("Library.swift"), encoding: .utf8)
        #expect(modelFile.contains("public enum Library {"))
        #expect(modelFile.contains("defaultData: [\n"))
        // Diagnostics name the store, since its model has no lines.
        #expect(run.standardError.contains("\(store.path): warning: transformable attribute 'frontCover' of 'Book' has no Codable Swift type"))
        #expect(!run.standardError.contains("\n: "))
    }

    @Test func lintAndDump_readTheModelAStoreCarries() throws {
        let store = try Self.copyOfFixture()
        let lint = try CLITests.run("lint", store.path)
        #expect(lint.status == 0, "\(lint.standardError)")
        #expect(lint.standardError.contains("\(store.path): warning: relationship 'books' of entity 'Author' has a negative minimum or maximum count"))
        let dump = try CLITests.run("dump", store.path, "--format", "summary")
        #expect(dump.standardOutput.contains("  frontCover: Transformable (default 277 bytes)\n"))
        #expect(dump.standardOutput.contains("  pagesCount: Integer 64? (derived)\n"))
    }

    @Test func aVersionOfAStore_isAnError() throws {
        let store = try Self.copyOfFixture()
        let run = try CLITests.run("generate", store.path, "-o", store.deletingLastPathComponent().path, "--model-version", "Library 2")
        #expect(run.status != 0)
        #expect(run.standardError == "\(store.path): error: a store carries one model, so --model-version Library 2 cannot be read from it\n")
    }
}
