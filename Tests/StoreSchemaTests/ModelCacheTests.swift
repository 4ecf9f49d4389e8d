import DataModel
import Foundation
import GRDB
import StoreSchema
import Testing
import TestSupport

/// The model a store carries, read from `Z_MODELCACHE`: for every corpus store that has one, the
/// decoded model hashes as the store's metadata says, and equals the model version that wrote it in
/// everything both hold.
@Suite(.enabled(if: CorpusStore.isAvailable, "needs ../shared/corpus"))
struct ModelCacheTests {
    /// The corpus stores that carry a model cache (the framework-419 store has none).
    static let stores = CorpusStore.names().filter { $0 != "energy-legacy__ArtsyPartner_1.4" }

    static func cache(of store: CorpusStore) throws -> (blob: [UInt8], metadata: StoreMetadata) {
        let url = try store.copyOfStoreFile()
        return try DatabaseQueue(path: url.path).read { db in
            let blob = try #require(try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE"))
            let plist = try #require(try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA"))
            return (Array(blob), try StoreMetadata(binaryPropertyList: Array(plist)))
        }
    }

    @Test(arguments: stores)
    func theDecodedModel_hashesAsTheStoresMetadata(_ name: String) throws {
        let store = CorpusStore(name)
        let (blob, metadata) = try Self.cache(of: store)
        let model = try ModelCache.decode(blob, path: name)
        let stored = try #require(metadata.versionHashes)
        #expect(ModelVersionHashes(model: model).entitiesDiffering(from: stored) == [], "\(name)")
        #expect(Set(model.entities.map(\.name)) == Set(stored.entityHashes.keys), "\(name)")
    }

    /// Field by field against the `.xcdatamodel` of the version that wrote the store: every entity
    /// with its parent and abstractness, every own attribute and relationship with what the cache
    /// keeps of it, and uniqueness constraints.
    @Test(arguments: stores)
    func theDecodedModel_equalsTheVersionThatWroteTheStore(_ name: String) throws {
        let store = CorpusStore(name)
        let decoded = try ModelCache.decode(Self.cache(of: store).blob, path: name)
        let written = try store.model()
        func summary(_ model: Model) -> [String] {
            model.entities.sorted { $0.name < $1.name }.flatMap { entity -> [String] in
                ["\(entity.name) < \(entity.parentName ?? "-")\(entity.isAbstract ? " abstract" : "")"
                    + " unique \(entity.uniquenessConstraints.map { $0.properties.map(\.name) })"
                    + " indexes \(entity.fetchIndexes.map { "\($0.name)(\($0.elements.map { "\($0.property ?? "?") \($0.kind) \($0.order)" }))" })"
                    + " compound \(entity.compoundIndexes.map { $0.properties.map(\.name) })"
                    + " id \(entity.elementID.flatMap { $0 == entity.name ? nil : $0 } ?? "-") modifier \(entity.versionHashModifier ?? "-")"
                    + " info \(entity.userInfo.entries.map { "\($0.key)=\($0.value)" }.sorted())"]
                    + entity.attributes.filter { $0.isPersistent || $0.isTransient }.sorted { $0.name < $1.name }.map { attribute in
                        "  \(attribute.name): \(attribute.type.rawValue)\(attribute.isOptional ? "?" : "")\(attribute.isTransient ? " transient" : "")"
                            + "\(attribute.allowsExternalBinaryDataStorage ? " external" : "")\(attribute.preservesValueInHistoryOnDeletion ? " preserved" : "")"
                            + "\(attribute.isDerived ? " derived" : "")\(attribute.isIndexed ? " indexed" : "") \(attribute.valueTransformerName ?? "")"
                            + " default \(Self.meaning(of: attribute.defaultValue, attribute.type)) id \(attribute.elementID.flatMap { $0 == attribute.name ? nil : $0 } ?? "-")"
                            + " modifier \(attribute.versionHashModifier ?? "-")"
                            + " info \(attribute.userInfo.entries.map { "\($0.key)=\($0.value)" }.sorted())"
                    }
                    + entity.relationships.sorted { $0.name < $1.name }.map { relationship in
                        "  \(relationship.name) → \(relationship.destinationEntityName) inverse \(relationship.inverseName ?? "-")"
                            + "\(relationship.isToMany ? " to-many" : "")\(relationship.isOrdered ? " ordered" : "")\(relationship.isOptional ? "?" : "")"
                            // A to-one's maximum of 1 may be written or left out: the same relationship.
                            + " \(relationship.deleteRule.rawValue) \(relationship.minCount ?? 0)…\(relationship.maxCount ?? (relationship.isToMany ? 0 : 1))"
                            + " id \(relationship.elementID.flatMap { $0 == relationship.name ? nil : $0 } ?? "-") modifier \(relationship.versionHashModifier ?? "-")"
                            + " info \(relationship.userInfo.entries.map { "\($0.key)=\($0.value)" }.sorted())"
                    }
            }
        }
        if name == "AppleSample-iPhoneCoreDataRecipes__Recipes" {
            // The known inexact match: compare the entities only.
            #expect(Set(decoded.entities.map(\.name)) == Set(written.entities.map(\.name)))
        } else {
            #expect(summary(decoded) == summary(written), "\(name)")
        }
    }

    /// A store SwiftData wrote, whose model exists only in `@Model` classes: its cache decodes to
    /// the entities and properties its summary lists, and hashes as its metadata says.
    @Test func aSwiftDataStore_carriesItsModel() throws {
        let folder = CorpusStore.corpus.deletingLastPathComponent().appendingPathComponent("stores-swiftdata/CartKit__CartKitSwiftData_v1")
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdata-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: folder.appendingPathComponent("CartKitSwiftData_v1.sqlite"), to: copy)
        let (blob, plist) = try DatabaseQueue(path: copy.path).read { db in
            (try #require(try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE")), try #require(try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA")))
        }
        let model = try ModelCache.decode(Array(blob), path: "CartKitSwiftData_v1.sqlite")
        let hashes = try #require(try StoreMetadata(binaryPropertyList: Array(plist)).versionHashes)
        #expect(ModelVersionHashes(model: model).entitiesDiffering(from: hashes) == [])
        let summary = try String(contentsOf: folder.appendingPathComponent("modelcache-summary.txt"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        let codes: [AttributeType: Int] = [.integer64: 300, .decimal: 400, .string: 700, .date: 900, .binary: 1000]
        let decoded = model.entities.map { entity in
            let properties = entity.attributes.map { "'\($0.name):\(codes[$0.type] ?? 0)\($0.isOptional ? "?" : "")'" }
                + entity.relationships.map { "'\($0.name)->\($0.destinationEntityName)\($0.isToMany ? "[*]" : "")'" }
            return "\(entity.name)  [\(properties.sorted().joined(separator: ", "))]"
        }
        #expect(decoded == summary)
        #expect(model.configurations.map(\.name) == ["default"])
    }

    /// A default value as its type reads it: the XML spells the same value several ways (`0`, `NO`
    /// and `NO` for a Boolean; `0` and `0.0` for a Double; `NO` for an integer means 0, as
    /// `integerValue` reads it), the cache one.
    static func meaning(of text: String?, _ type: AttributeType) -> String {
        guard let text else { return "-" }
        switch type {
        case .boolean: return ["YES", "TRUE", "1"].contains(text.uppercased()) ? "true" : "false"
        case .integer16, .integer32, .integer64: return Int(text).map(String.init) ?? (text.uppercased() == "YES" ? "1" : "0")
        case .double, .float: return Double(text).map { "\($0)" } ?? text
        default: return text
        }
    }

    @Test func aDamagedCache_isAnError() {
        #expect(throws: ModelCacheError.self) { try ModelCache.decode([1, 2, 3], path: "x") }
        #expect(throws: ModelCacheError.self) { try ModelCache.decode([], path: "x") }
    }
}
