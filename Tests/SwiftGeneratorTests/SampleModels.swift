import DataModel
import DataModelParser
import Foundation
import SwiftGenerator
import Testing

/// The models whose generated code is compiled into `Tests/Generated/`, and where it lies.
struct SampleModel: CustomTestStringConvertible, Sendable {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let packageRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    static let generated = packageRoot.appendingPathComponent("Tests/Generated")
    static let goldens = testsDirectory.appendingPathComponent("Goldens")

    /// The model path relative to the package root.
    var path: String
    /// The folder of `Tests/Generated/` holding its generated code (a module of the package).
    var folder: String
    /// The files the code is split into: some samples take the build plugin's, so that both
    /// layouts are compiled and run.
    var layout = GeneratorOptions.Layout.entityFiles
    /// Whether its classes take part in Observation: one sample is generated with it off, so that
    /// both forms are compiled and run.
    var isObservable = true
    /// The mapping models beside it, relative to the package root, which its code compiles.
    var mappingModelPaths: [String] = []

    /// The options its code is generated with.
    var options: GeneratorOptions { GeneratorOptions(layout: layout, isObservable: isObservable) }

    static let all = [
        SampleModel(path: "Models/Books.xcdatamodeld", folder: "Books"),
        SampleModel(path: "Models/Events.xcdatamodeld", folder: "Events"),
        SampleModel(path: "Models/Everything.xcdatamodeld", folder: "Everything"),
        SampleModel(path: "Models/FailedBanks.xcdatamodeld", folder: "FailedBanks", layout: .incremental),
        SampleModel(path: "Models/Products.xcdatamodeld", folder: "Products", isObservable: false),
        SampleModel(path: "Tests/SwiftGeneratorTests/Fixtures/HostileNames.xcdatamodel", folder: "HostileNames", layout: .incremental),
        SampleModel(
            path: "Examples/ReadingList/Sources/ReadingList/Models/ReadingList.xcdatamodeld", folder: "ReadingList",
            mappingModelPaths: ["Examples/ReadingList/Sources/ReadingList/Models/ReadingList1to2.xcmappingmodel"]),
    ]

    var testDescription: String { folder }

    /// The model as the parser reads it. Generated code names the model file, never its folder, so
    /// where the package lies does not matter.
    func load() throws -> ModelLoader.Result {
        let result = try ModelLoader().load(Self.packageRoot.appendingPathComponent(path).path)
        try #require(!result.diagnostics.containsErrors)
        return result
    }

    /// Every version of the model as the parser reads it, oldest first, and the current one: what
    /// `datamodel-gen generate` generates from.
    func loadVersions() throws -> (versions: [Model], current: Model) {
        let loaded = try ModelLoader().loadVersions(Self.packageRoot.appendingPathComponent(path).path)
        for version in loaded.versions { try #require(!version.diagnostics.containsErrors) }
        return (loaded.versions.map(\.model), loaded.versions[loaded.current].model)
    }

    /// Its mapping models as the parser reads them.
    func mappingModels() throws -> [MappingModel] {
        try mappingModelPaths.map { path in
            let parsed = try MappingModelParser.load(Self.packageRoot.appendingPathComponent(path).path)
            try #require(parsed.diagnostics.isEmpty)
            return parsed.mappingModel
        }
    }
}
