import DataModel
import DataModelParser
@testable import DataStore
import Foundation
import Testing
import TestSupport

/// The corpus's mapping models, each run on a store seeded at its source version with objects of
/// every entity — with ports of the apps' policies where the mapping names one: every source object
/// becomes one destination object of the entity its mapping names, with the values its `$source`
/// expressions (or the source's attribute of the same name) give.
@Suite(.enabled(if: CorpusStore.isAvailable, "needs ../shared/corpus"))
struct CorpusMappingMigrationTests {
    static let mappings = CorpusStore.corpus.appendingPathComponent("mappings")

    /// The mappings whose apps' policies are not needed: renames, constants, merged entities,
    /// type changes and added entities.
    static let withoutPolicies = [
        "AltStore__AltStore5ToAltStore6", "srguserdata-apple__SRGUserData_v5_v6", "woocommerce-ios__WooCommerceModelV9toV10",
        "apptentive-ios__ATDataModel_v4_to_v5", "amperfy__MappingModelV10toV11",
    ]

    @Test(arguments: withoutPolicies)
    func aMappingWithoutPolicies_migratesASeededStore(_ folder: String) throws {
        _ = try Self.migrate(folder)
    }

    /// Ports of the helper-method policies three apps ship: methods their mapping's value
    /// expressions call (described in each folder's README; the apps' code is not copied).
    struct AltStorePolicy: MigrationPolicy {
        func value(ofFunction selector: String, arguments: [Any?], manager: MigrationManager) throws -> Any? {
            switch selector {
            case "migrateIconURL": URL(string: "https://example.com/placeholder.png")
            case "migrateScreenshotURLs": Data()  // the app's empty array, as transformed bytes
            default: throw MigrationError.custom(message: "no method \(selector)")
            }
        }
    }

    /// An integer identifier as its decimal text (Integer 32 → String).
    struct AmperfyPolicy: MigrationPolicy {
        func value(ofFunction selector: String, arguments: [Any?], manager: MigrationManager) throws -> Any? {
            guard selector == "stringIdForIntId:" else { throw MigrationError.custom(message: "no method \(selector)") }
            return (arguments.first as? Int64).map(String.init)
        }
    }

    /// Old save-state kinds renumbered (the new raw values here are the test's).
    struct DeltaPolicy: MigrationPolicy {
        static func renumbered(_ old: Int64) -> Int64 { old + 100 }

        func value(ofFunction selector: String, arguments: [Any?], manager: MigrationManager) throws -> Any? {
            guard selector == "migrateSaveStateType:", let old = arguments.first as? Int64 else { throw MigrationError.custom(message: "no method \(selector)") }
            return Self.renumbered(old)
        }
    }

    @Test func mappingsWithHelperPolicies_migrateWithTheirPorts() throws {
        let altStore = try Self.migrate("AltStore__AltStoreToAltStore2", policies: ["StoreAppToStoreAppMigrationPolicy": { AltStorePolicy() }])
        let apps = try altStore.context.fetch(FetchRequest<ManagedObject>(entityName: "StoreApp"))
        #expect(apps.count == altStore.seeded["StoreApp"]?.count)
        #expect(apps.allSatisfy { ($0.value(forKey: "iconURL") as? URL)?.absoluteString == "https://example.com/placeholder.png" })

        let amperfy = try Self.migrate("amperfy__MappingModelV4toV5", policies: ["Amperfy.MigrationPolicyV4toV5": { AmperfyPolicy() }])
        for entity in ["Artist", "Album", "Song", "Playlist"] {
            var request = FetchRequest<ManagedObject>(entityName: entity)
            request.includesSubentities = false
            let ids = try amperfy.context.fetch(request).map { $0.value(forKey: "id") as? String }.compactMap { $0 }.sorted()
            let sourceIDs = (amperfy.seeded[entity] ?? []).compactMap { ($0.value(forKey: "id") as? Int64).map(String.init) }.sorted()
            #expect(!ids.isEmpty && ids == sourceIDs, "\(entity)")
        }

        let delta = try Self.migrate("Delta__DeltaToDelta2", policies: ["SaveStateToSaveStateMigrationPolicy": { DeltaPolicy() }])
        let kinds = try delta.context.fetch(FetchRequest<ManagedObject>(entityName: "SaveState")).compactMap { $0.value(forKey: "type") as? Int64 }.sorted()
        let oldKinds = (delta.seeded["SaveState"] ?? []).compactMap { $0.value(forKey: "type") as? Int64 }
        #expect(!kinds.isEmpty && kinds == oldKinds.map(DeltaPolicy.renumbered).sorted())
    }

    /// A port of Frollo's `MessageMigration` (Apache-2.0), named by the five message mappings: for
    /// a mapping whose user info says `ModelVersion` 1.5.2, a new message with every attribute the
    /// source has a value for, and the removed Boolean `actionOpenExternal` as the new
    /// `openModeRawValue` text; for any other mapping, nothing (the app's policy drops the object).
    struct FrolloMessagePolicy: MigrationPolicy {
        func createDestinationInstances(for source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
            guard mapping.userInfo["ModelVersion"] == "1.5.2" else { return }
            guard let entity = mapping.destinationEntityName else { throw MigrationError.custom(message: "MessageMigrationError -1") }
            let message = try manager.destinationContext.insertObject(entityName: entity)
            for attribute in message.entity.attributes {
                if attribute.name == "openModeRawValue" {
                    guard let external = source.value(forKey: "actionOpenExternal") as? Bool else {
                        throw MigrationError.custom(message: "MessageMigrationError -3")
                    }
                    try message.setValue(external ? "external" : "internal", forKey: attribute.name)
                } else if source.entity.attribute(named: attribute.name) != nil, let value = source.value(forKey: attribute.name) {
                    try message.setValue(value, forKey: attribute.name)
                }
            }
            manager.associate(source: source, destination: message, mapping: mapping)
        }
    }

    /// A port of OpenEmu's two policies (BSD-3-Clause), for a store of version "1.0 Beta": the
    /// default object, then its new `location` — for a ROM, the URL its bookmark resolves to (macOS
    /// resolves bookmarks; the port takes a resolver), for a save state its old `path` read as a
    /// URL. The apps' policies set the value by rewriting the mapping's expression before calling
    /// `super`, which leaves it set for the next object whose value cannot be computed; the port
    /// gives that object no location, which is what the policies mean.
    struct OpenEmuLocationPolicy: MigrationPolicy {
        let location: @Sendable (ManagedObject) -> String?

        /// A ROM's location: its bookmark resolved.
        static func rom(resolving resolve: @escaping @Sendable (Data) -> String?) -> Self {
            Self { rom in (rom.value(forKey: "bookmarkData") as? Data).flatMap(resolve) }
        }

        /// A save state's location: its path as URL text.
        static let saveState = Self { state in (state.value(forKey: "path") as? String).flatMap { URL(string: $0)?.absoluteString } }

        func createDestinationInstances(for source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
            let made = try manager.createDestinationInstanceByDefault(for: source, in: mapping)
            guard manager.sourceModel.header.userDefinedModelVersionIdentifier == "1.0 Beta", let location = location(source) else { return }
            try made.setValue(location, forKey: "location")
        }
    }

    /// The test's bookmarks: the seeded bytes name a ROM file.
    static func resolveBookmark(_ bookmark: Data) -> String? {
        bookmark.first.map { "file:///Users/player/ROMs/Game%20\($0).sfc" }
    }

    @Test func openEmuAndFrollo_migrateWithPortsOfTheirPolicies() throws {
        let frollo = try Self.migrate("frollo-swift-sdk__FrolloSDKDataModelMapping-1.5.1-1.5.2", policies: ["FrolloSDK.MessageMigration": { FrolloMessagePolicy() }])
        let messages = try frollo.context.fetch(FetchRequest<ManagedObject>(entityName: "Message"))
        let seededMessages = ["Message", "MessageText", "MessageVideo", "MessageHTML", "MessageImage"].flatMap { frollo.seeded[$0] ?? [] }
        #expect(messages.count == seededMessages.count)
        func openModes(_ objects: [ManagedObject], _ value: (ManagedObject) -> String?) -> [String: String] {
            Dictionary(uniqueKeysWithValues: objects.map { ("\($0.value(forKey: "messageID")!)", value($0) ?? "nil") })
        }
        #expect(openModes(messages) { $0.value(forKey: "openModeRawValue") as? String }
            == openModes(seededMessages) { ($0.value(forKey: "actionOpenExternal") as? Bool).map { $0 ? "external" : "internal" } })

        let openEmu = try Self.migrate("OpenEmu__1.0_Beta_to_0.2", policies: [
            "OEDBRomMigrationPolicy": { OpenEmuLocationPolicy.rom(resolving: Self.resolveBookmark) },
            "OEDBSaveStateMigrationPolicy": { OpenEmuLocationPolicy.saveState },
        ])
        for (entity, location) in [("ROM", { (rom: ManagedObject) in (rom.value(forKey: "bookmarkData") as? Data).flatMap(Self.resolveBookmark) }),
                                   ("SaveState", { (state: ManagedObject) in (state.value(forKey: "path") as? String).flatMap { URL(string: $0)?.absoluteString } })] {
            let made = try openEmu.context.fetch(FetchRequest<ManagedObject>(entityName: entity)).map { $0.value(forKey: "location") as? String ?? "nil" }
            let expected = (openEmu.seeded[entity] ?? []).map { location($0) ?? "nil" }
            #expect(!made.isEmpty && !made.contains("nil") && made.sorted() == expected.sorted(), "\(entity)")
        }
    }

    /// Seeds a store at the mapping's source version, migrates it with `policies`, and checks that
    /// each destination entity holds one object per source object of the mappings that make it,
    /// with the source's values wherever an attribute is taken from the source as it is.
    static func migrate(
        _ folder: String, policies: [String: @Sendable () -> any MigrationPolicy] = [:]
    ) throws -> (context: ObjectContext, seeded: [String: [ManagedObject]]) {
        let (mapping, source, destination) = try load(folder)
        var seeded: [String: [ManagedObject]] = [:]
        let url = try MigrationSupport.store(source) { context in seeded = try seed(context, source) }
        let store = try MigrationSupport.open(url, destination, versions: [source, destination], migration: MigrationOptions(
            mappingModels: [mapping], migrationPolicies: policies))
        let context = store.newContext()
        keep(context)

        var expectedCounts: [String: Int] = [:]
        for entityMapping in mapping.entityMappings {
            guard let from = entityMapping.sourceEntityName, let to = entityMapping.destinationEntityName else { continue }
            expectedCounts[to, default: 0] += seeded[from]?.count ?? 0
        }
        var compared = 0
        for (entity, count) in expectedCounts {
            var request = FetchRequest<ManagedObject>(entityName: entity)
            request.includesSubentities = false
            let made = try context.fetch(request)
            #expect(made.count == count, "\(folder): \(entity)")
            for attribute in destination.entity(named: entity).map({ destination.allAttributes(of: $0) }) ?? [] where !attribute.isTransient {
                guard let expected = sourceValues(of: attribute, in: entity, mapping, source, seeded) else { continue }
                compared += 1
                #expect(made.map { "\($0.value(forKey: attribute.name) ?? "nil")" }.sorted() == expected.sorted(), "\(folder): \(entity).\(attribute.name)")
            }
        }
        #expect(compared >= expectedCounts.count, "\(folder): \(compared) attributes compared")
        return (context, seeded)
    }

    /// The mapping model of the corpus folder `folder`, and the two versions it connects.
    static func load(_ folder: String) throws -> (mapping: MappingModel, source: Model, destination: Model) {
        let directory = mappings.appendingPathComponent(folder)
        let contents = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        let mapping = try MappingModelParser.load(directory.appendingPathComponent(try #require(contents.first { $0.hasSuffix(".xcmappingmodel") })).path).mappingModel
        let bundle = directory.appendingPathComponent(try #require(contents.first { $0.hasSuffix(".xcdatamodeld") })).path
        let names = try FileManager.default.contentsOfDirectory(atPath: bundle).filter { $0.hasSuffix(".xcdatamodel") }
            .map { String($0.dropLast(".xcdatamodel".count)) }.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        let all = try names.map { try ModelLoader().load(bundle, version: $0).model }
        let found = try #require(mapping.connectedVersions(among: all))
        return (mapping, all[found.source], all[found.destination])
    }

    /// The values `attribute` of the destination `entity` takes from the source objects, when each
    /// mapping that makes the entity takes it from a source attribute of its type as it is.
    static func sourceValues(
        of attribute: Attribute, in entity: String, _ mapping: MappingModel, _ source: Model, _ seeded: [String: [ManagedObject]]
    ) -> [String]? {
        var expected: [String] = []
        for entityMapping in mapping.entityMappings where entityMapping.destinationEntityName == entity {
            guard let from = entityMapping.sourceEntityName, let sourceEntity = source.entity(named: from) else { continue }
            let property = entityMapping.attributeMappings.first { $0.name == attribute.name }
            let key: String? = switch property?.valueExpression {
            case nil: property == nil ? nil : attribute.name
            case let text? where text.hasPrefix("$source.") && text.dropFirst(8).allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }):
                String(text.dropFirst(8))
            default: nil
            }
            guard let key, let old = source.allAttributes(of: sourceEntity).first(where: { $0.name == key }), old.type == attribute.type else {
                return nil
            }
            expected += (seeded[from] ?? []).map { "\($0.value(forKey: old.name) ?? "nil")" }
        }
        return expected.isEmpty ? nil : expected
    }

    /// Contexts the returned objects fault through, kept for the test's life.
    private static let contexts = Locked<[ObjectContext]>([])

    static func keep(_ context: ObjectContext) {
        contexts.withLock { $0.append(context) }
    }

    /// Two objects of every concrete entity, every stored attribute set by its type (transformable
    /// ones to bytes), and every
    /// relationship linked to objects of its destination.
    static func seed(_ context: ObjectContext, _ model: Model) throws -> [String: [ManagedObject]] {
        var objects: [String: [ManagedObject]] = [:]
        var serial = 1
        for entity in model.entities where !entity.isAbstract {
            for index in 0..<2 {
                let object = try context.insertObject(entityName: entity.name)
                for attribute in model.allAttributes(of: entity) where !attribute.isTransient && !attribute.isDerived {
                    // Unbounded integers count across objects, so that a uniqueness constraint over a hierarchy holds.
                    let counts = attribute.type.isInteger && attribute.minValue == nil && attribute.maxValue == nil
                    let value = counts ? Int64(serial) : sample(attribute.type, index, attribute.name)
                    if let value { try object.setValue(value, forKey: attribute.name) }
                }
                serial += 1
                objects[entity.name, default: []].append(object)
            }
        }
        for entity in model.entities where !entity.isAbstract {
            for (index, object) in (objects[entity.name] ?? []).enumerated() {
                for relationship in model.allRelationships(of: entity) where !relationship.isTransient {
                    let candidates = model.entities.filter { model.entity($0, isKindOf: relationship.destinationEntityName) }.flatMap { objects[$0.name] ?? [] }
                    guard !candidates.isEmpty else { continue }
                    let target = candidates[index % candidates.count]
                    try object.setValue(relationship.isToMany ? [target] : target, forKey: relationship.name)
                }
            }
        }
        return objects
    }

    static func sample(_ type: AttributeType, _ index: Int, _ name: String) -> Any? {
        switch type {
        case .integer16, .integer32, .integer64: Int64(index + 1)
        case .double, .float: Double(index) + 0.5
        case .decimal: Decimal(index) + Decimal(string: "0.25")!
        case .string: "\(name) \(index)"
        case .boolean: index % 2 == 0
        case .date: Date(timeIntervalSinceReferenceDate: Double(index * 1_000))
        case .binary: Data([UInt8(index), 7])
        case .uuid: UUID(uuidString: "00000000-0000-0000-0000-00000000000\(index)")
        case .uri: URL(string: "https://example.com/\(name)/\(index)")
        case .transformable: Data("\(name) \(index)".utf8)  // the transformed bytes, as a store holds them
        case .undefined, .objectID, .composite: nil
        }
    }
}
