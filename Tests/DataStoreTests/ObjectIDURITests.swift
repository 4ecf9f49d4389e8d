import DataStore
import Foundation
import Library
import Testing

/// `ObjectID` to URI and back, and as `Codable`: what apps keep for state restoration and in
/// notifications, read back by the store that wrote it and refused by any other.
@Suite struct ObjectIDURITests {
    @Test(arguments: TestedEngine.available) func uris_readBackToTheSameID_onlyInTheirStore(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            let author = Author(context: context)
            author.name = "Austen"
            let unsaved = Author(context: context)
            unsaved.name = "Unsaved"
            #expect(store.managedObjectID(forURIRepresentation: unsaved.objectID.uriRepresentation) == nil, "a temporary ID")
            context.rollback()
            let saved = Author(context: context)
            saved.name = "Austen"
            try context.save()

            let uri = saved.objectID.uriRepresentation
            #expect(uri.absoluteString == "x-coredata://\(store.identifier)/Author/p\(saved.objectID.primaryKey!)")
            let id = try #require(store.managedObjectID(forURIRepresentation: uri))
            #expect(id == saved.objectID)
            #expect((try store.newContext().existingObject(with: id) as? Author)?.name == "Austen")

            for other in [
                "x-coredata://00000000-0000-0000-0000-000000000000/Author/p1", "x-coredata://\(store.identifier)/Nobody/p1",
                "x-coredata://\(store.identifier)/Author/t1", "x-coredata://\(store.identifier)/Author/p", "x-coredata://\(store.identifier)/Author/p-1",
                "x-coredata://\(store.identifier)/Author", "https://\(store.identifier)/Author/p1", "x-coredata://\(store.identifier)/Author/p1/more",
            ] {
                #expect(store.managedObjectID(forURIRepresentation: URL(string: other)!) == nil, "\(other)")
            }
            // A row that does not exist still has an ID; reading it says so.
            let missing = try #require(store.managedObjectID(forURIRepresentation: URL(string: "x-coredata://\(store.identifier)/Author/p999")!))
            #expect(throws: ContextError.self) { try store.newContext().existingObject(with: missing) }
        }
    }

    @Test func ids_areCodable_withTheirStore() throws {
        let store = try TestStores.newStore(TestStores.library)
        let context = store.newContext()
        let author = Author(context: context)
        author.name = "Shelley"
        try context.save()

        struct Restoration: Codable, Equatable { var selected: ObjectID; var recent: [ObjectID] }
        let state = Restoration(selected: author.objectID, recent: [author.objectID])
        let data = try JSONEncoder().encode(state)
        #expect(String(decoding: data, as: UTF8.self).contains("x-coredata:"))
        let decoder = JSONDecoder()
        decoder.userInfo[.persistentStore] = store
        #expect(try decoder.decode(Restoration.self, from: data) == state)

        #expect(throws: DecodingError.self, "without its store") { try JSONDecoder().decode(Restoration.self, from: data) }
        let other = try TestStores.newStore(TestStores.library)
        decoder.userInfo[.persistentStore] = other
        #expect(throws: DecodingError.self, "in another store") { try decoder.decode(Restoration.self, from: data) }
    }
}
