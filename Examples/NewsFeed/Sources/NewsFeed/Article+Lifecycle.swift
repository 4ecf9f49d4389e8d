import DataStore
import Foundation

extension Article: ManagedObjectLifecycle {
    /// Each article read from the feed records when: an upsert carries the date to the stored
    /// article with the rest of the new values. Set as a primitive value: a first value, which
    /// nobody needs to be told of.
    public func awakeFromInsert() {
        setPrimitiveValue(Date(), for: Article.fetchedAt)
    }

    /// The thumbnail lives beside the store; it goes with its article, however the article goes
    /// (deleted, or by its source's cascade).
    public func prepareForDeletion() {
        guard let thumbnailPath else { return }
        try? FileManager.default.removeItem(atPath: thumbnailPath)
    }
}
