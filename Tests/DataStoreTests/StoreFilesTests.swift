import DataStore
import Foundation
import Library
import StoreSchema
import Testing

/// Store files managed as Core Data's coordinator manages them: destroyed, replaced, and their
/// metadata read and written.
@Suite struct StoreFilesTests {
    /// A store file holding books with `titles`.
    static func storeHolding(_ titles: [String]) throws -> URL {
        let url = TestStores.newStoreURL()
        let context = try PersistentStore(url: url, model: TestStores.library).newContext()
        for title in titles { Book(context: context).title = title }
        try context.save()
        return url
    }

    static func titles(at url: URL) throws -> [String] {
        try PersistentStore(url: url, model: TestStores.library).newContext()
            .fetch(FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor(Book.title)])).map(\.title)
    }

    @Test func destroying_removesTheStoreAndItsCompanions_andNothingElse() throws {
        let url = try Self.storeHolding(["Emma"])
        let open = try PersistentStore(url: url, model: TestStores.library)
        #expect(FileManager.default.fileExists(atPath: url.path + "-wal"), "a store open on the file has its log")
        try PersistentStore.destroyStore(at: url)
        for path in [url.path, url.path + "-wal", url.path + "-shm"] { #expect(!FileManager.default.fileExists(atPath: path)) }
        try PersistentStore.destroyStore(at: url)  // no file: nothing to do
        _ = open
        #expect(try Self.titles(at: url) == [], "a new store opens there")

        let notes = TestStores.newStoreURL()
        try Data("not a store".utf8).write(to: notes)
        #expect(throws: StoreError.self) { try PersistentStore.destroyStore(at: notes) }
        #expect(FileManager.default.fileExists(atPath: notes.path), "a file that is no store stays")
    }

    /// The connections that read faults close before the writer, which then folds the log into
    /// the file and removes it: a file copied after its store closed holds every save.
    @Test func closingAStore_leavesNoLog_evenAfterFaultsWereRead() throws {
        let url = try Self.storeHolding(["Emma", "Persuasion"])
        do {
            let store = try PersistentStore(url: url, model: TestStores.library)
            let context = store.newContext()
            let ids = try context.fetchObjectIDs(FetchRequest<Book>())
            #expect(Set(ids.map { (context.object(with: $0) as? Book)?.title }) == ["Emma", "Persuasion"])
            #expect(FileManager.default.fileExists(atPath: url.path + "-wal"))
        }
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"), "the log was folded into the file")
        #expect(!FileManager.default.fileExists(atPath: url.path + "-shm"))
    }

    @Test func replacing_copiesTheSourceStore_intoANewOrExistingFile() throws {
        let source = try Self.storeHolding(["Emma", "Persuasion"])
        let existing = try Self.storeHolding(["Beloved"])
        try PersistentStore.replaceStore(at: existing, withStoreAt: source)
        #expect(try Self.titles(at: existing) == ["Emma", "Persuasion"])

        let new = TestStores.newStoreURL()
        try PersistentStore.replaceStore(at: new, withStoreAt: source)
        #expect(try Self.titles(at: new) == ["Emma", "Persuasion"])
        #expect(try PersistentStore(url: new, model: TestStores.library).identifier
            == PersistentStore(url: source, model: TestStores.library).identifier, "a copy is the same store")
        #expect(try Self.titles(at: source) == ["Emma", "Persuasion"], "the source is as it was")

        let notes = TestStores.newStoreURL()
        try Data("not a store".utf8).write(to: notes)
        #expect(throws: StoreError.self) { try PersistentStore.replaceStore(at: notes, withStoreAt: source) }
        #expect(try Data(contentsOf: notes) == Data("not a store".utf8), "a file that is no store is not overwritten")
        #expect(throws: StoreError.fileNotFound(path: "/nonexistent/Store.sqlite")) {
            try PersistentStore.replaceStore(at: new, withStoreAt: URL(fileURLWithPath: "/nonexistent/Store.sqlite"))
        }
    }

    @Test func metadata_readsWithoutAModel_andAppKeysAreWrittenBesideTheModels() throws {
        let url = try Self.storeHolding(["Emma"])
        var metadata = try PersistentStore.metadataForStore(at: url)
        #expect(metadata.versionHashes == TestStores.library.versionHashes)

        metadata.entries["lastImport"] = .string("2026-11-28")
        metadata.entries[StoreMetadata.Key.versionHashes] = .dictionary([:])  // not the app's to change
        try PersistentStore.setMetadata(metadata, forStoreAt: url)
        let written = try PersistentStore.metadataForStore(at: url)
        #expect(written.entries["lastImport"] == .string("2026-11-28"))
        #expect(written.versionHashes == TestStores.library.versionHashes)
        #expect(try Self.titles(at: url) == ["Emma"], "the store still opens with its model")
    }

    @Test(arguments: TestedEngine.available) func anOpenStoresMetadata_isWrittenInItsOwnTransaction(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            var metadata = store.metadata
            metadata.entries["syncToken"] = .integer(42)
            metadata.entries.removeValue(forKey: StoreMetadata.Key.versionHashes)
            try store.setMetadata(metadata)
            #expect(store.metadata.entries["syncToken"] == .integer(42))
            #expect(store.metadata.versionHashes == TestStores.library.versionHashes)
            if engine == .sqlite, let url = store.url {
                #expect(try PersistentStore.metadataForStore(at: url).entries["syncToken"] == .integer(42))
            }
        }
    }
}
