import DataModel
import DataModelParser
import DataStore
import Foundation
import Testing

/// Models from `Models/` and fresh store files in a temporary directory.
enum TestStores {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func model(_ bundle: String, version: String? = nil) throws -> Model {
        let loaded = try ModelLoader().load(packageRoot.appendingPathComponent("Models/\(bundle).xcdatamodeld").path, version: version)
        try #require(!loaded.diagnostics.containsErrors)
        return loaded.model
    }

    static let books = try! ManagedObjectModel(model: model("Books"), classes: [Book.self])
    static let failedBanks = try! ManagedObjectModel(model: model("FailedBanks"), classes: [FailedBankInfo.self, FailedBankDetails.self])
    static let products = try! ManagedObjectModel(model: model("Products"), classes: [Products.self, FavoriteProducts.self])
    static let library = try! ManagedObjectModel(model: model("Everything", version: "Everything 2"), classes: Library.classes)

    /// A path for a new store file in a fresh temporary directory.
    static func newStoreURL(_ name: String = "Store") -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("DataStoreTests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("\(name).sqlite")
    }

    /// A new store file for `model`.
    static func newStore(_ model: ManagedObjectModel) throws -> PersistentStore {
        try PersistentStore(url: newStoreURL(), model: model)
    }
}
