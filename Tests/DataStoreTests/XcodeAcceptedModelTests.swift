import DataModel
import DataModelParser
import DataStore
import Foundation
import GRDB
import StoreSchema
import Testing

/// What the runtime does with the model rules Xcode accepts and the validator only warns about
/// (`Tests/DataModelParserTests/Fixtures/Valid/XcodeAccepts.xcdatamodel`, whose warnings are its golden).
@Suite struct XcodeAcceptedModelTests {
    static func model() throws -> Model {
        let path = TestStores.packageRoot
            .appendingPathComponent("Tests/DataModelParserTests/Fixtures/Valid/XcodeAccepts.xcdatamodel").path
        let loaded = try ModelLoader().load(path)
        #expect(!loaded.diagnostics.containsErrors)
        #expect(loaded.diagnostics.count == 8)
        return loaded.model
    }

    static func newContext() throws -> (ObjectContext, PersistentStore) {
        let store = try TestStores.newStore(ManagedObjectModel(model: model()))
        return (store.newContext(), store)
    }

    /// `Image.artist` names `Artist.thumbnail`, which pairs with `Image.thumbnail`: setting
    /// `artist` changes no thumbnail, and the reciprocal pair keeps each other in step.
    @Test func nonReciprocalInverse_isKeptOnItsOwn() throws {
        let (context, store) = try Self.newContext()
        let artist = try context.insertObject(entityName: "Artist")
        let image = try context.insertObject(entityName: "Image")
        try image.setValue(artist, forKey: "artist")
        #expect(artist.value(forKey: "thumbnail") == nil)
        #expect(image.value(forKey: "thumbnail") == nil)

        try artist.setValue(image, forKey: "thumbnail")
        #expect(image.value(forKey: "thumbnail") as? ManagedObject === artist)
        #expect(image.value(forKey: "artist") as? ManagedObject === artist)
        try context.save()

        let columns = try DatabaseQueue(path: try #require(store.url).path).read { db in
            try Row.fetchOne(db, sql: "SELECT i.ZARTIST, i.ZTHUMBNAIL, a.ZTHUMBNAIL AS back FROM ZIMAGE i, ZARTIST a")
        }
        #expect(columns?["ZARTIST"] == artist.objectID.primaryKey)
        #expect(columns?["ZTHUMBNAIL"] == artist.objectID.primaryKey)
        #expect(columns?["back"] == image.objectID.primaryKey)

        // Clearing `artist` leaves the pair alone.
        try image.setValue(nil, forKey: "artist")
        #expect(artist.value(forKey: "thumbnail") as? ManagedObject === image)
    }

    /// A to-many whose named inverse has no inverse of its own is stored as a to-many without an
    /// inverse (a hidden key column in the destination's table); the named to-one is not touched.
    @Test func nonReciprocalToMany_isStoredWithoutInverse() throws {
        let (context, store) = try Self.newContext()
        let schema = StoreSchema(model: try Self.model())
        #expect(schema.table(forEntityNamed: "Image")?.column(for: .inverselessToMany(entity: "Artist", relationship: "gallery"))?.name == "Z1GALLERY")

        let artist = try context.insertObject(entityName: "Artist")
        let image = try context.insertObject(entityName: "Image")
        try artist.setValue(Set([image]), forKey: "gallery")
        #expect(image.value(forKey: "owner") == nil)
        try context.save()

        let rereading = store.newContext()
        let reread = try rereading.existingObject(with: artist.objectID)
        #expect((reread.value(forKey: "gallery") as? Set<ManagedObject>)?.map(\.objectID) == [image.objectID])
        let owner = try DatabaseQueue(path: try #require(store.url).path).read { db in
            try Row.fetchOne(db, sql: "SELECT ZOWNER, Z1GALLERY FROM ZIMAGE")
        }
        #expect(owner?["ZOWNER"] as Int64? == nil)
        #expect(owner?["Z1GALLERY"] == artist.objectID.primaryKey)
    }

    /// An inverse named without its entity is looked up on the destination and kept in step.
    @Test func inverseWithoutEntity_isTheDestinationsRelationship() throws {
        let (context, _) = try Self.newContext()
        let artist = try context.insertObject(entityName: "Artist")
        let image = try context.insertObject(entityName: "Image")
        try image.setValue(artist, forKey: "sitter")
        #expect((artist.value(forKey: "portraits") as? Set<ManagedObject>) == [image])
    }

    /// A fetch index element naming a to-many is left out of the index; an index of nothing else
    /// is not made.
    @Test func fetchIndexOverToMany_coversTheOtherElements() throws {
        let indexes = StoreSchema(model: try Self.model()).indexes.filter { $0.table == "ZARTIST" }
        #expect(indexes.map(\.name).sorted() == ["ZARTIST_ZTHUMBNAIL_INDEX", "Z_Artist_byNameAndGallery"])
        #expect(indexes.first { $0.name == "Z_Artist_byNameAndGallery" }?.keys.map(\.column) == ["ZNAME"])
    }

    /// Defaults that are not values of their type leave the attribute without a default.
    @Test func unparsableDefaults_areNoDefault() throws {
        let (context, _) = try Self.newContext()
        let artist = try context.insertObject(entityName: "Artist")
        #expect(try artist.attributeValue(forKey: "identifier") == .null)
        #expect(try artist.attributeValue(forKey: "website") == .null)
        try context.save()
    }
}
