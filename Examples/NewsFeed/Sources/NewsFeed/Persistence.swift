import DataStore
import Foundation

/// The app's persistence layer: one container, whose view context shows the store to the
/// interface and follows the saves of the background contexts that import the feed.
final class Persistence: Sendable {
    let container: PersistentContainer

    /// A container whose store is `Feed.sqlite` in `directory`.
    init(directory: URL) {
        container = PersistentContainer(name: "Feed", model: Feed.model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: directory.appendingPathComponent("Feed.sqlite"))]
    }

    /// Opens the store and sets up the view context, as an app does at launch.
    @MainActor func load() async throws {
        try await container.loadPersistentStores()
        let view = container.viewContext
        // The list follows the imports by itself; an edit made here wins over a concurrent import.
        view.automaticallyMergesChangesFromParent = true
        view.mergePolicy = .mergeByPropertyObjectTrump
    }
}
