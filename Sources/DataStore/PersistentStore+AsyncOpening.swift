import Foundation

extension PersistentStore {
    /// Opens the store at `url` as ``init(url:model:migration:history:pragmas:)`` does — creating
    /// it, or migrating it from an earlier version of the model — on a thread of its own, so that
    /// the caller's isolation stays free meanwhile: a migration of a large store takes seconds,
    /// which the main actor or a server's request task should not wait through blocked.
    ///
    ///     let store = try await PersistentStore.open(url: storeURL, model: Library.model)
    public static func open(
        url: URL, model: ManagedObjectModel, migration: MigrationOptions = .automatic, history: HistoryTracking = .automatic,
        pragmas: [String: String] = [:]
    ) async throws(StoreError) -> PersistentStore {
        try await onItsOwnThread { () throws(StoreError) in
            try PersistentStore(url: url, model: model, migration: migration, history: history, pragmas: pragmas)
        }
    }
}
