import DataModel
import DataModelParser
import Foundation
import Testing

/// Mapping models: the real ones of `../shared/corpus/mappings` read whole, with the expressions
/// and policies their READMEs decode; broken ones get located errors.
@Suite struct MappingModelParserTests {
    static let mappings = TestPaths.corpus.appendingPathComponent("mappings")

    /// Every mapping bundle of the corpus, by folder.
    static let bundles: [String] = {
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: mappings.path)) ?? []).filter { !$0.hasSuffix(".md") }.sorted()
        return folders.compactMap { folder in
            let contents = (try? FileManager.default.contentsOfDirectory(atPath: mappings.appendingPathComponent(folder).path)) ?? []
            return contents.first { $0.hasSuffix(".xcmappingmodel") }.map { "\(folder)/\($0)" }
        }
    }()

    static func load(_ bundle: String) throws -> ParsedMappingModel {
        try MappingModelParser.load(mappings.appendingPathComponent(bundle).path)
    }

    @Test(.enabled(if: TestPaths.hasCorpus, "../shared/corpus is absent"))
    func theCorpusHoldsTwelve() {
        #expect(Self.bundles.count == 12)
    }

    @Test(.enabled(if: TestPaths.hasCorpus, "../shared/corpus is absent"), arguments: bundles)
    func everyCorpusMapping_parsesWithoutAProblem(_ bundle: String) throws {
        let parsed = try Self.load(bundle)
        #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
        #expect(!parsed.mappingModel.entityMappings.isEmpty)
        #expect(parsed.mappingModel.sourceModelPath?.hasSuffix(".xcdatamodel") == true)
        for mapping in parsed.mappingModel.entityMappings {
            #expect(mapping.sourceEntityName != nil || mapping.destinationEntityName != nil)
            #expect(mapping.attributeMappings.allSatisfy { !$0.name.isEmpty })
        }
    }

    /// The entity mappings in the order they run, with the counts each README gives: orphans that
    /// nothing links to are left out (apptentive's file holds one more entity mapping).
    @Test(.enabled(if: TestPaths.hasCorpus, "../shared/corpus is absent"))
    func entityMappings_areThoseTheMappingModelLinks_inTheirOrder() throws {
        let counts = try Dictionary(uniqueKeysWithValues: Self.bundles.map { ($0.components(separatedBy: "/")[0], try Self.load($0).mappingModel.entityMappings.count) })
        #expect(counts == [
            "AltStore__AltStore5ToAltStore6": 11, "AltStore__AltStoreToAltStore2": 9, "CareKit__2.0_2.1_Mapping": 16,
            "CoreStore__Advanced.EvolutionDemo.V2.FromV1": 1, "Delta__DeltaToDelta2": 6, "OpenEmu__1.0_Beta_to_0.2": 12,
            "amperfy__MappingModelV10toV11": 16, "amperfy__MappingModelV4toV5": 9, "apptentive-ios__ATDataModel_v4_to_v5": 7,
            "frollo-swift-sdk__FrolloSDKDataModelMapping-1.5.1-1.5.2": 22, "srguserdata-apple__SRGUserData_v5_v6": 2,
            "woocommerce-ios__WooCommerceModelV9toV10": 17,
        ])
        let altStore = try Self.load("AltStore__AltStoreToAltStore2/AltStoreToAltStore2.xcmappingmodel").mappingModel
        #expect(altStore.entityMappings.map(\.name) == [
            "ToNewsItem", "AccountToAccount", "TeamToTeam", "StoreAppToStoreApp", "RefreshAttemptToRefreshAttempt",
            "AppPermissionToAppPermission", "InstalledAppToInstalledApp", "ToPatreonAccount", "SourceToSource",
        ])
        #expect(altStore.entityMappings.map(\.kind) == [.add] + Array(repeating: .transform, count: 6) + [.add, .transform])
        #expect(altStore.sourceModelPath == "AltStore/Model/AltStore.xcdatamodeld/AltStore.xcdatamodel")
    }

    /// The stored value expressions, as the READMEs decode them.
    @Test(.enabled(if: TestPaths.hasCorpus, "../shared/corpus is absent"))
    func valueExpressions_readAsThePredicateLanguageWritesThem() throws {
        func expressions(_ bundle: String, _ mapping: String) throws -> [String: String] {
            let entity = try #require(try Self.load(bundle).mappingModel.entityMapping(named: mapping))
            return Dictionary(uniqueKeysWithValues: (entity.attributeMappings + entity.relationshipMappings).compactMap { property in
                property.valueExpression.map { (property.name, $0) }
            })
        }
        let storeApp = try expressions("AltStore__AltStoreToAltStore2/AltStoreToAltStore2.xcmappingmodel", "StoreAppToStoreApp")
        #expect(storeApp == ["iconURL": #"FUNCTION($entityPolicy, "migrateIconURL")"#, "screenshotURLs": #"FUNCTION($entityPolicy, "migrateScreenshotURLs")"#])
        let playlist = try expressions("amperfy__MappingModelV4toV5/MappingModelV4toV5.xcmappingmodel", "PlaylistToPlaylist")
        #expect(playlist["id"] == #"FUNCTION($entityPolicy, "stringIdForIntId:", $source.id)"#)
        let evolution = try Self.load("CoreStore__Advanced.EvolutionDemo.V2.FromV1/Advanced.EvolutionDemo.V2.FromV1.xcmappingmodel").mappingModel
        let values = Set(evolution.entityMappings[0].attributeMappings.compactMap(\.valueExpression))
        #expect(values.contains("$source.numberOfFlagella"))
        #expect(values.contains("YES"))
        #expect(evolution.entityMappings[0].migrationPolicyClassName == "Advanced_EvolutionDemo_V2_FromV1MigrationPolicy")
        let message = try Self.load("apptentive-ios__ATDataModel_v4_to_v5/ATDataModel v4 to v5.xcmappingmodel").mappingModel
        let links = message.entityMappings.flatMap(\.relationshipMappings).compactMap(\.valueExpression)
        #expect(links.contains { $0.hasPrefix(#"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "ATFileMessageToATMessage", $source."#) })
    }

    @Test(.enabled(if: TestPaths.hasCorpus, "../shared/corpus is absent"))
    func userInfoAndSourceMappingNames_areRead() throws {
        let frollo = try Self.load("frollo-swift-sdk__FrolloSDKDataModelMapping-1.5.1-1.5.2/FrolloSDKDataModelMapping-1.5.1-1.5.2.xcmappingmodel").mappingModel
        let withPolicy = frollo.entityMappings.filter { $0.migrationPolicyClassName == "FrolloSDK.MessageMigration" }
        #expect(Set(withPolicy.compactMap(\.sourceEntityName)) == ["Message", "MessageHTML", "MessageImage", "MessageText", "MessageVideo"])
        #expect(withPolicy.allSatisfy { $0.userInfo == ["ModelVersion": "1.5.2"] })
        let amperfy = try Self.load("amperfy__MappingModelV10toV11/MappingModelV10toV11.xcmappingmodel").mappingModel
        #expect(amperfy.entityMappings.flatMap(\.relationshipMappings).compactMap(\.sourceMappingName).count == 1)
    }

    /// Which versions of its bundle each mapping connects, told by the model snapshots it archives
    /// (its header paths are stale in several: CareKit's names a version the bundle lacks).
    @Test(.enabled(if: TestPaths.hasCorpus, "../shared/corpus is absent"))
    func theVersionsAMappingConnects_areFoundByItsSnapshots() throws {
        let expected = [
            "AltStore__AltStore5ToAltStore6": ("AltStore 5", "AltStore 6"), "AltStore__AltStoreToAltStore2": ("AltStore", "AltStore 2"),
            "CareKit__2.0_2.1_Mapping": ("CareKitStore2.0", "CareKitStore2.1"),
            "CoreStore__Advanced.EvolutionDemo.V2.FromV1": ("Advanced.EvolutionDemo.V1", "Advanced.EvolutionDemo.V2"),
            "Delta__DeltaToDelta2": ("Delta", "Delta 2"), "OpenEmu__1.0_Beta_to_0.2": ("OEDatabase", "OEDatabase 0.2"),
            "amperfy__MappingModelV10toV11": ("Amperfy v10", "Amperfy v11"), "amperfy__MappingModelV4toV5": ("Amperfy v4", "Amperfy v5"),
            "apptentive-ios__ATDataModel_v4_to_v5": ("ATDataModel 4", "ATDataModel 5"),
            "frollo-swift-sdk__FrolloSDKDataModelMapping-1.5.1-1.5.2": ("FrolloSDKDataModel-1.5.1", "FrolloSDKDataModel-1.5.2"),
            "srguserdata-apple__SRGUserData_v5_v6": ("SRGUserData_v5", "SRGUserData_v6"),
            "woocommerce-ios__WooCommerceModelV9toV10": ("Model 9", "Model 10"),
        ]
        for bundle in Self.bundles {
            let folder = bundle.components(separatedBy: "/")[0]
            let versions = try Self.versions(beside: bundle)
            let found = try #require(try Self.load(bundle).mappingModel.connectedVersions(among: versions), "\(folder)")
            #expect(versions[found.source].versionName == expected[folder]?.0, "\(folder)")
            #expect(versions[found.destination].versionName == expected[folder]?.1, "\(folder)")
        }
    }

    /// Every version of the model bundle beside a mapping.
    static func versions(beside bundle: String) throws -> [Model] {
        let folder = mappings.appendingPathComponent(bundle).deletingLastPathComponent()
        let model = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".xcdatamodeld") })
        let path = folder.appendingPathComponent(model).path
        let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".xcdatamodel") }.sorted()
        return try names.map { try ModelLoader().load(path, version: String($0.dropLast(".xcdatamodel".count))).model }
    }

    // MARK: Broken mapping models

    static func parse(_ xml: String) throws -> ParsedMappingModel {
        try MappingModelParser.parse(Array(xml.utf8), path: "Broken.xcmappingmodel/xcmapping.xml")
    }

    static func store(_ objects: String) -> String {
        """
        <?xml version="1.0" standalone="yes"?>
        <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">
        <database>
            <object type="XDDEVMAPPINGMODEL" id="z1">
                <attribute name="sourcemodelpath" type="string">A.xcdatamodel</attribute>
                <relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z2 z9"></relationship>
            </object>
        \(objects)
        </database>
        """
    }

    @Test func aDamagedExpressionOrAMissingObject_isALocatedError() throws {
        let parsed = try Self.parse(Self.store("""
                <object type="XDDEVENTITYMAPPING" id="z2">
                    <attribute name="sourcename" type="string">Book</attribute>
                    <attribute name="destinationname" type="string">Book</attribute>
                    <relationship name="attributemappings" type="0/0" destination="XDDEVATTRIBUTEMAPPING" idrefs="z3"></relationship>
                </object>
                <object type="XDDEVATTRIBUTEMAPPING" id="z3">
                    <attribute name="name" type="string">title</attribute>
                    <attribute name="valueexpressiondata" type="binary">YnBsaXN0MDA=</attribute>
                </object>
            """))
        #expect(parsed.diagnostics.map(\.description) == [
            "Broken.xcmappingmodel/xcmapping.xml:6:9: error: entitymappings links to z9, which the file does not hold",
            "Broken.xcmappingmodel/xcmapping.xml:15:9: error: valueexpressiondata: damaged keyed archive: not a binary property list",
        ])
        #expect(parsed.mappingModel.entityMappings.map(\.name) == ["BookToBook"])
    }

    @Test func aFileThatIsNoMappingModel_isRefusedWithItsReason() throws {
        #expect(throws: ModelLoadingError.self) { try Self.parse("<model/>") }
        #expect(throws: ModelLoadingError.self) { try Self.parse("<database></database>") }
        #expect(throws: ModelLoadingError.self) { try Self.parse("") }
        #expect(throws: ModelLoadingError.self) { try MappingModelParser.load("/nonexistent/X.xcmappingmodel") }
    }
}
