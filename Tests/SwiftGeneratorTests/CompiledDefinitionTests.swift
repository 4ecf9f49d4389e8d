import DataModel
import DataStore
import GeneratedBooks
import GeneratedEvents
import GeneratedFailedBanks
import GeneratedHostileNames
import GeneratedProducts
import Library
import StoreSchema
import Testing

/// The model each generated module compiles into Swift equals the parsed model, so stores opened
/// with generated code have the layout and version hashes of the model file.
@Suite struct CompiledDefinitionTests {
    static let compiled: [String: Model] = [
        "Books": Books.definition, "Events": Events.definition, "Everything": Everything.definition,
        "FailedBanks": FailedBanks.definition, "Products": ProductsModel.definition,
        "HostileNames": HostileNamesModel.definition,
    ]

    @Test(arguments: SampleModel.all)
    func compiledDefinition_equalsTheParsedModel(_ sample: SampleModel) throws {
        let parsed = try sample.load().model
        let compiled = try #require(Self.compiled[sample.folder])
        #expect(compiled == parsed.withoutSourceDetails)
        #expect(ModelVersionHashes(model: compiled) == ModelVersionHashes(model: parsed))
        #expect(StoreSchema(model: compiled).sql(metadata: nil) == StoreSchema(model: parsed).sql(metadata: nil))
    }
}
