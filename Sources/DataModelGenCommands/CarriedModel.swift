import DataModel
import DataStore
import Foundation

/// A store file named where a model is expected: the model it carries stands in for one.
enum CarriedModel {
    /// The model the store file at `path` carries, or `nil` when `path` is no SQLite file.
    static func ofStore(at path: String) throws(StoreError) -> Model? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let magic = try? handle.read(upToCount: 16), magic == Data("SQLite format 3\0".utf8) else { return nil }
        return try PersistentStore.modelForStore(at: URL(fileURLWithPath: path))
    }
}
