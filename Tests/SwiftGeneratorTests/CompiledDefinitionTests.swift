import DataModel
import DataStore
import GeneratedBooks
import GeneratedEvents
import GeneratedFailedBanks
import GeneratedHostileNames
import GeneratedProducts
import GeneratedReadingList
import Library
import StoreSchema
import Testing

/// The model each generated module compiles into Swift equals the parsed model, so stores opened
/// with generated code have the layout and version hashes of the model file.
@Suite struct CompiledDefinitionTests {
    static let compiled: [String: Model] = [
        "Books": Books.definition, "Events": Events.definition, "Everything": Everything.definition,
        "FailedBanks": FailedBanks.definition, "Products": ProductsModel.definition,
        "HostileNames": HostileNamesModel.definition, "ReadingList": ReadingList.definition,
    ]

    static let compiledModels: [String: ManagedObjectModel] = [
        "Books": Books.model, "Events": Events.model, "Everything": Everything.model,
        "FailedBanks": FailedBanks.model, "Products": ProductsModel.model, "HostileNames": HostileNamesModel.model,
        "ReadingList": ReadingList.model,
    ]

    @Test(arguments: SampleModel.all)
    func compiledVersions_equalTheParsedVersions(_ sample: SampleModel) throws {
        let parsed = try sample.loadVersions()
        let compiled = try #require(Self.compiledModels[sample.folder])
        #expect(compiled.versions == parsed.versions.map(\.withoutSourceDetails))
        #expect(compiled.versions[compiled.currentVersionIndex] == compiled.model)
        #expect(compiled.model == parsed.current.withoutSourceDetails)
        for (compiledVersion, parsedVersion) in zip(compiled.versions, parsed.versions) {
            #expect(ModelVersionHashes(model: compiledVersion) == ModelVersionHashes(model: parsedVersion))
            #expect(StoreSchema(model: compiledVersion).sql(metadata: nil) == StoreSchema(model: parsedVersion).sql(metadata: nil))
        }
    }

    /// The compiled mapping model is the parsed one, named by its versions instead of by snapshots
    /// of them, and the model carries it.
    @Test func readingList_carriesItsMappingModel_asParsed() throws {
        let sample = try #require(SampleModel.all.first { $0.folder == "ReadingList" })
        var parsed = try #require(try sample.mappingModels().first)
        parsed.path = "ReadingList1to2.xcmappingmodel"
        parsed.sourceModelPath = "ReadingList.xcdatamodeld/ReadingList 1.xcdatamodel"
        parsed.destinationModelPath = "ReadingList.xcdatamodeld/ReadingList 2.xcdatamodel"
        (parsed.sourceSnapshot, parsed.destinationSnapshot) = (nil, nil)
        #expect(ReadingList.mappingModels == [parsed.withoutLocations])
        #expect(ReadingList.model.mappingModels == ReadingList.mappingModels)
        #expect(ReadingList.mappingModels[0].connectedVersions(among: ReadingList.versions).map { [$0.source, $0.destination] } == [0, 1])
    }

    @Test func everything_carriesBothVersions_theSecondCurrent() {
        let model = Everything.model
        #expect(model.versions.map(\.versionName) == ["Everything 1", "Everything 2"])
        #expect(model.currentVersionIndex == 1)
        #expect(Everything.versions == [Everything.Versions.everything1, Everything.definition])
    }

    @Test(arguments: SampleModel.all)
    func compiledDefinition_equalsTheParsedModel(_ sample: SampleModel) throws {
        let parsed = try sample.load().model
        let compiled = try #require(Self.compiled[sample.folder])
        #expect(compiled == parsed.withoutSourceDetails)
        #expect(ModelVersionHashes(model: compiled) == ModelVersionHashes(model: parsed))
        #expect(StoreSchema(model: compiled).sql(metadata: nil) == StoreSchema(model: parsed).sql(metadata: nil))
    }
}
