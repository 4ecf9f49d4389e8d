import DataModelParser
import DataStore
import StoreSchema
import Foundation
import Testing
import TestSupport

/// `inspect STORE` without `--model`: the model the store carries reads it exactly as the model
/// version that wrote it does; a store without one says so.
@Suite(.enabled(if: CorpusStore.isAvailable, "needs ../shared/corpus"))
struct InspectCarriedModelTests {
    static let storesWithACache = CorpusStore.names().filter { $0 != "energy-legacy__ArtsyPartner_1.4" }

    @Test(arguments: storesWithACache)
    func withoutAModel_printsWhatTheWritingModelPrints(_ name: String) throws {
        let store = CorpusStore(name)
        let url = try store.copyOfStoreFile()
        let carried = try CLITests.run("inspect", url.path)
        let named = try CLITests.run("inspect", url.path, "--model", store.modelURL().path)
        #expect(carried.status == 0, "\(carried.standardError)")
        #expect(!carried.standardOutput.isEmpty)
        #expect(carried.standardOutput == named.standardOutput, "\(name)")
    }

    /// `dump STORE` prints the model a store carries as `dump MODEL` prints the writing model.
    @Test(arguments: ["CoreDataPlus__SampleModel_V1", "BrowserServicesKit__Bookmarks_V5", "passepartout__Profiles"])
    func dumpingAStore_printsTheWritingModelsSummary(_ name: String) throws {
        let store = CorpusStore(name)
        let carried = try CLITests.run("dump", store.copyOfStoreFile().path, "--format", "summary")
        #expect(carried.status == 0, "\(carried.standardError)")
        #expect(carried.standardOutput == (try CLITests.run("dump", store.modelURL().path, "--format", "summary")).standardOutput)
    }

    /// A store without a cache is read with the model its tables tell, and the warning says why
    /// and what that model cannot know; every row prints, links of join tables among them.
    @Test func aStoreWithoutACache_isReadWithThePartialModelItsTablesTell() throws {
        let url = try CorpusStore("energy-legacy__ArtsyPartner_1.4").copyOfStoreFile()
        let run = try CLITests.run("inspect", url.path)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains(
            "warning: the store carries no model that can be read: it has no Z_MODELCACHE (Core Data wrote one from 2011 on); using the model its tables tell, which is partial:"))
        #expect(run.standardError.contains("  - Document: the columns of its table are all its own; which subentity declares each is not stored"))
        let printed = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: [[String: Any]]]
        #expect(printed?["User"]?.count == 108)
        #expect(printed?["Album"]?.contains { ($0["artists"] as? [String])?.isEmpty == false } == true)
    }

    /// SwiftData's store, whose model exists only in `@Model` classes, opens and every row reads.
    @Test func aSwiftDataStore_opensWithItsOwnModel() throws {
        let folder = CorpusStore.corpus.deletingLastPathComponent().appendingPathComponent("stores-swiftdata/CartKit__CartKitSwiftData_v1")
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdata-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: folder.appendingPathComponent("CartKitSwiftData_v1.sqlite"), to: copy)
        let store = try PersistentStore.readOnly(url: copy)
        let carts = try store.newContext().fetch(FetchRequest<ManagedObject>(entityName: "CartModel"))
        #expect(carts.map { $0.value(forKey: "storeId") as? String } == ["store-legacy"])
        #expect(carts.map { $0.value(forKey: "status") as? String } == ["active"])
        let run = try CLITests.run("inspect", copy.path, "--entity", "CartModel", "--count")
        #expect(run.standardOutput == "1\n")
    }
}

/// `extract-model`: the model a store carries, written as XML, parses back to a model whose
/// version hashes are the store's, for every corpus store with a cache and SwiftData's.
@Suite(.enabled(if: CorpusStore.isAvailable, "needs ../shared/corpus"))
struct ExtractModelCommandTests {
    static func extracted(from url: URL) throws -> (run: CLITests.Run, model: URL) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("extract-\(UUID().uuidString)/Extracted.xcdatamodel")
        return (try CLITests.run("extract-model", url.path, "-o", output.path), output)
    }

    @Test(arguments: InspectCarriedModelTests.storesWithACache)
    func theExtractedModel_hashesAsTheStore(_ name: String) throws {
        let url = try CorpusStore(name).copyOfStoreFile()
        let (run, output) = try Self.extracted(from: url)
        #expect(run.status == 0, "\(run.standardError)")
        let parsed = try ModelLoader().load(output.path)
        #expect(parsed.diagnostics.filter { $0.severity == .error }.isEmpty, "\(parsed.diagnostics)")
        let stored = try #require(try PersistentStore.metadataForStore(at: url).versionHashes)
        #expect(ModelVersionHashes(model: parsed.model).entitiesDiffering(from: stored) == [], "\(name)")
        // The extracted model reads the store as its own model does.
        let lint = try CLITests.run("lint", output.path)
        #expect(!lint.standardError.contains("error:"), "\(lint.standardError)")
        let inspected = try CLITests.run("inspect", url.path, "--model", output.path)
        #expect(inspected.standardOutput == (try CLITests.run("inspect", url.path)).standardOutput)
    }

    @Test func aSwiftDataStore_getsAModel_andGeneratedCode() throws {
        let folder = CorpusStore.corpus.deletingLastPathComponent().appendingPathComponent("stores-swiftdata/CartKit__CartKitSwiftData_v1")
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdata-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: folder.appendingPathComponent("CartKitSwiftData_v1.sqlite"), to: copy)
        let (run, output) = try Self.extracted(from: copy)
        #expect(run.standardOutput.hasSuffix(": 3 entities from \(copy.path)\n"))
        let generated = output.deletingLastPathComponent().appendingPathComponent("Generated")
        let generate = try CLITests.run("generate", output.path, "-o", generated.path)
        #expect(generate.status == 0, "\(generate.standardError)")
        #expect(FileManager.default.fileExists(atPath: generated.appendingPathComponent("CartModel.swift").path))
    }
}
