import DataModel
import DataModelParser
import Foundation
import PropertyLists
import StoreSchema
import Testing
import TestSupport

/// Model version hashes against the `NSStoreModelVersionHashes`, digest and checksum that Apple's
/// Core Data wrote into every store of `../shared/corpus/stores` (migrated stores included: their
/// metadata describes the model version that migrated them last).
@Suite(.enabled(if: TestPaths.hasCorpus, "../shared/corpus is absent; hash comparisons need it beside the repository"))
struct ModelVersionHashTests {
    static func allStores() -> [String] {
        CorpusStore.names()
    }

    /// The model that wrote the store and the store's metadata as `metadata.plist` records it.
    static func load(_ store: String) throws -> (model: Model, metadata: [String: PropertyListValue]) {
        let corpusStore = CorpusStore(store)
        let model = try corpusStore.model()
        let plist = try PropertyListSerialization.propertyList(
            from: Data(contentsOf: corpusStore.folder.appendingPathComponent("metadata.plist")), format: nil)
        let metadata = try #require(PropertyListValue(foundation: plist)?.dictionary)
        return (model, metadata)
    }

    /// Stores written by another edit of the model kept beside them, and the entities that differ:
    /// the Recipes sample's store was written by Apple's original model, whose Image, Ingredient and
    /// Recipe have required attributes that the kept XML makes optional (its `Z_MODELCACHE` shows it).
    static let writtenByAnotherEdit: [String: [String]] = [
        "AppleSample-iPhoneCoreDataRecipes__Recipes": ["Image", "Ingredient", "Recipe"],
    ]

    @Test func corpus_hasElevenStores() {
        #expect(Self.allStores().count == 11)
    }

    /// Frameworks 419 to 1347: every entity of every store whose model is the one that wrote it.
    @Test(arguments: allStores())
    func entityHashes_equalTheStore(store: String) throws {
        let (model, metadata) = try Self.load(store)
        let stored = try #require(StoreMetadata(entries: metadata).versionHashes)
        let computed = ModelVersionHashes(model: model)
        #expect(computed.entitiesDiffering(from: stored) == Self.writtenByAnotherEdit[store] ?? [])
        #expect(stored.entityHashes.count == model.entities.count)
    }

    /// An attribute that allows external binary storage hashes one more byte (framework 641's
    /// `User`, whose two such attributes were the only difference from its stored hash).
    @Test func externalBinaryStorage_changesTheHash() throws {
        let model = try CorpusStore("wire-ios-data-model__store1-28").model()
        var inline = model
        let user = try #require(model.entities.firstIndex { $0.name == "User" })
        for index in inline.entities[user].attributes.indices { inline.entities[user].attributes[index].allowsExternalBinaryDataStorage = false }
        #expect(ModelVersionHashes(model: inline).entitiesDiffering(from: ModelVersionHashes(model: model)) == ["User"])
    }

    static func storesWithDigest() -> [String] {
        allStores().filter { store in
            (try? load(store).metadata[StoreMetadata.Key.versionHashesDigest]) != nil
        }
    }

    @Test func digest_isInEveryStoreOfFramework1044OrLater() {
        #expect(Self.storesWithDigest().count == 8)
    }

    @Test(arguments: storesWithDigest())
    func digestAndChecksum_equalTheStore(store: String) throws {
        let (model, metadata) = try Self.load(store)
        let computed = StoreMetadata(model: model).entries
        let digest = try #require(metadata[StoreMetadata.Key.versionHashesDigest])
        #expect(computed[StoreMetadata.Key.versionHashesDigest] == digest)
        if let checksum = metadata[StoreMetadata.Key.versionChecksum] {  // newest frameworks only
            #expect(computed[StoreMetadata.Key.versionChecksum] == checksum)
        }
    }

    /// The hashes cover what Core Data hashes and nothing else.
    @Test func hash_changesWithStorage_notWithCodeOrPresentation() throws {
        let path = TestPaths.packageRoot.appendingPathComponent("Models/Everything.xcdatamodeld").path
        let model = try ModelLoader().load(path).model
        let original = ModelVersionHashes(model: model)
        let entity = try #require(model.entities.first { !$0.attributes.isEmpty && !model.subentities(of: $0).isEmpty })
        let index = try #require(model.entities.firstIndex(of: entity))
        let expectedChange = ([entity.name] + model.descendants(of: entity).map(\.name)).sorted()

        var cosmetic = model
        cosmetic.entities[index].className = nil
        cosmetic.entities[index].userInfo = UserInfo()
        cosmetic.entities[index].attributes[0].defaultValue = "changed"
        cosmetic.entities[index].attributes[0].userInfo = UserInfo()
        cosmetic.entities[index].relationships = entity.relationships.map { var copy = $0; copy.deleteRule = .deny; return copy }
        #expect(ModelVersionHashes(model: cosmetic) == original)

        var retyped = model
        retyped.entities[index].attributes[0].type = entity.attributes[0].type == .string ? .binary : .string
        #expect(ModelVersionHashes(model: retyped).entitiesDiffering(from: original) == expectedChange)

        var optional = model
        optional.entities[index].attributes[0].isOptional.toggle()
        #expect(ModelVersionHashes(model: optional).entitiesDiffering(from: original) == expectedChange)

        var modified = model
        modified.entities[index].versionHashModifier = "2"
        #expect(ModelVersionHashes(model: modified).entitiesDiffering(from: original) == expectedChange)
    }
}

extension PropertyListValue {
    /// A value read by Foundation's property-list reader (strings, numbers, data, arrays and
    /// dictionaries, Booleans — what store metadata holds).
    init?(foundation value: Any) {
        switch value {
        case let flag as Bool where type(of: value) == Bool.self: self = .boolean(flag)
        case let string as String: self = .string(string)
        case let data as Data: self = .data(Array(data))
        case let number as Int: self = .integer(number)
        case let array as [Any]:
            let elements = array.compactMap(PropertyListValue.init(foundation:))
            guard elements.count == array.count else { return nil }
            self = .array(elements)
        case let dictionary as [String: Any]:
            let entries = dictionary.compactMapValues(PropertyListValue.init(foundation:))
            guard entries.count == dictionary.count else { return nil }
            self = .dictionary(entries)
        default: return nil
        }
    }
}
