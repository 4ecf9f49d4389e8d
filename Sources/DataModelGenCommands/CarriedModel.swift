import DataModel
import DataStore
import Foundation
import GeneratorCommand

/// A store file named where a model is expected: the model it carries stands in for one.
enum CarriedModel {
    /// The model the store file at `path` carries, or `nil` when `path` is no SQLite file.
    static func ofStore(at path: String) throws(StoreError) -> Model? {
        guard CarriedModels.isStoreFile(path) else { return nil }
        return try of(URL(fileURLWithPath: path))
    }

    /// The model the store at `url` carries; for a store without a readable model cache (the
    /// oldest releases wrote none), the model its catalog tells, with a warning saying why and
    /// what that model cannot know.
    static func of(_ url: URL) throws(StoreError) -> Model {
        do {
            return try PersistentStore.modelForStore(at: url)
        } catch .noCarriedModel(let reason) {
            let (model, unrecovered) = try PersistentStore.catalogModelForStore(at: url)
            StandardError.write("\(url.path): warning: \(StoreError.noCarriedModel(reason: reason)); using the model its tables tell, which is partial:")
            for gap in unrecovered { StandardError.write("  - \(gap)") }
            return model
        }
    }
}
