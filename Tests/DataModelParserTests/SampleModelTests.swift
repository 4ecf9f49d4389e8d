import DataModel
import DataModelParser
import Foundation
import Testing

/// The bundled sample models are the main job's inputs: they must stay error-free, and their dumps
/// are goldens that show every feature of the vocabulary.
@Suite struct SampleModelTests {
    static let samples = [
        ("FailedBanks", nil), ("Products", nil), ("Books", nil), ("Events", nil),
        ("Everything", "Everything 1"), ("Everything", "Everything 2"),
    ] as [(String, String?)]

    @Test(arguments: samples)
    func sampleModel_loadsWithoutErrorsAndMatchesGolden(bundle: String, version: String?) throws {
        let path = TestPaths.packageRoot.appendingPathComponent("Models/\(bundle).xcdatamodeld").path
        let loaded = try ModelLoader().load(path, version: version)
        #expect(!loaded.diagnostics.containsErrors, "\(loaded.diagnostics)")
        let name = version ?? bundle
        try expectGolden(try ModelJSON.string(from: loaded.model) + "\n", "Models/\(name).json")
    }

    @Test func everything_currentVersionIsTheMarkedOne() throws {
        let path = TestPaths.packageRoot.appendingPathComponent("Models/Everything.xcdatamodeld").path
        let loaded = try ModelLoader().load(path)
        #expect(loaded.model.versionName == "Everything 2")
        #expect(loaded.availableVersions == ["Everything 1", "Everything 2"])
    }

    /// `Everything` must really use every part of the vocabulary, or its golden proves little.
    @Test func everything_usesEveryFeature() throws {
        let path = TestPaths.packageRoot.appendingPathComponent("Models/Everything.xcdatamodeld").path
        let model = try ModelLoader().load(path).model
        let attributes = model.entities.flatMap(\.attributes) + model.composites.flatMap(\.attributes)
        #expect(Set(attributes.map(\.type)) == Set(AttributeType.allCases))
        let relationships = model.entities.flatMap(\.relationships)
        #expect(Set(relationships.map(\.deleteRule)) == Set(Relationship.DeleteRule.allCases))
        #expect(relationships.contains { $0.isOrdered })
        #expect(relationships.contains { $0.inverseName == nil })
        #expect(relationships.contains { $0.maxCount == 500 })
        #expect(attributes.contains { $0.isDerived && $0.derivationExpression == "chapters.@count" })
        #expect(attributes.contains { $0.defaultDateTimeInterval != nil })
        #expect(attributes.contains { $0.minDateTimeInterval != nil && $0.maxDateTimeInterval != nil })
        #expect(attributes.contains { $0.regularExpression != nil })
        #expect(attributes.contains { $0.valueTransformerName != nil && $0.customClassName != nil })
        #expect(attributes.contains { $0.allowsExternalBinaryDataStorage })
        #expect(attributes.contains { $0.isIndexedBySpotlight })
        #expect(attributes.contains { $0.preservesValueInHistoryOnDeletion })
        #expect(attributes.contains { $0.allowsCloudEncryption })
        #expect(attributes.contains { $0.isIndexed })
        #expect(attributes.contains { $0.isTransient })
        #expect(attributes.contains { !$0.userInfo.isEmpty })
        #expect(model.entities.contains { $0.isAbstract })
        #expect(model.entities.contains { $0.elementID != nil && $0.versionHashModifier != nil })
        #expect(Set(model.entities.map(\.codeGenerationType)) == Set(Entity.CodeGenerationType.allCases))
        #expect(model.entities.contains { $0.className?.isInCurrentModule == true })
        #expect(model.entities.contains { $0.className?.module == "Library" })
        #expect(model.entities.contains { !$0.fetchedProperties.isEmpty })
        #expect(model.entities.contains { $0.fetchIndexes.contains { $0.elements.count > 1 } })
        #expect(model.entities.contains { $0.fetchIndexes.contains { $0.elements.contains { $0.order == .descending } } })
        #expect(model.entities.contains { $0.uniquenessConstraints.contains { $0.properties.count > 1 } })
        #expect(model.composites.contains { $0.attributes.contains { $0.type == .composite } })
        #expect(Set(model.fetchRequestTemplates.map(\.resultType)).isSuperset(of: [.managedObjects, .managedObjectIDs, .dictionaries]))
        #expect(model.fetchRequestTemplates.contains {
            $0.fetchLimit > 0 && $0.fetchBatchSize > 0 && !$0.includesSubentities && !$0.includesPendingChanges
                && !$0.returnsObjectsAsFaults && $0.returnsDistinctResults
        })
        #expect(model.configurations.count == 2)
        let legacy = try ModelLoader().load(path, version: "Everything 1").model
        #expect(legacy.entities.contains { !$0.compoundIndexes.isEmpty })
        #expect(!legacy.diagramLayout.isEmpty)
        #expect(legacy.entities.flatMap(\.relationships).contains { $0.minCount == 1 && $0.maxCount == 1 })
    }
}
