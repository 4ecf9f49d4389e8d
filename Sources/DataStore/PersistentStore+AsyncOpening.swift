import Dispatch
import Foundation

extension PersistentStore {
    /// Opens the store at `url` as ``init(url:model:migration:history:)`` does — creating it, or
    /// migrating it from an earlier version of the model — on a thread of its own, so that the
    /// caller's isolation stays free meanwhile: a migration of a large store takes seconds, which
    /// the main actor or a server's request task should not wait through blocked.
    ///
    ///     let store = try await PersistentStore.open(url: storeURL, model: Library.model)
    public static func open(
        url: URL, model: ManagedObjectModel, migration: MigrationOptions = .automatic, history: HistoryTracking = .automatic
    ) async throws(StoreError) -> PersistentStore {
        let opened: Result<PersistentStore, StoreError> = await withCheckedContinuation { continuation in
            // Opening blocks on the file (and SQLite's locks): a Dispatch thread, not one of the
            // concurrency pool's few.
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: Result { () throws(StoreError) in
                    try PersistentStore(url: url, model: model, migration: migration, history: history)
                })
            }
        }
        return try opened.get()
    }
}
