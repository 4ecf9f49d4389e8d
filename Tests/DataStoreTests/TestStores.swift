import DataModel
import DataModelParser
import DataStore
import Foundation
import GeneratedBooks
import class GeneratedBooks.Book
import GeneratedFailedBanks
import GeneratedProducts
import Library
import Testing

/// Models from `Models/` and fresh store files in a temporary directory.
enum TestStores {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func model(_ bundle: String, version: String? = nil) throws -> Model {
        let loaded = try ModelLoader().load(packageRoot.appendingPathComponent("Models/\(bundle).xcdatamodeld").path, version: version)
        try #require(!loaded.diagnostics.containsErrors)
        return loaded.model
    }

    // The generated models: the classes and compiled definitions of `Tests/Generated/`.
    static let books = Books.model
    static let failedBanks = FailedBanks.model
    static let products = ProductsModel.model
    static let library = Everything.model

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
