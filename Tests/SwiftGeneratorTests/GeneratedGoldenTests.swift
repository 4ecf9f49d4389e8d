import DataModel
import DataModelParser
import Foundation
import SwiftGenerator
import Testing
import TestSupport

/// The generator's output is byte-for-byte the code in `Tests/Generated/`, which the package
/// compiles and the runtime tests run against. Re-record with `DATAMODEL_RECORD_GOLDENS=1`.
@Suite struct GeneratedGoldenTests {
    @Test(arguments: SampleModel.all)
    func sampleModel_generatesTheCompiledGolden(_ sample: SampleModel) throws {
        let result = try SwiftGenerator().generate(sample.load().model)
        #expect(!result.diagnostics.containsErrors)
        let folder = SampleModel.generated.appendingPathComponent(sample.folder)
        let existing = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(Set(existing) == Set(result.files.map(\.name)), "the golden folder holds exactly the generated files")
        for file in result.files {
            try expectGolden(file.contents, file.name, in: folder)
        }
    }

    static let variations: [(name: String, options: GeneratorOptions)] = [
        ("internal-single-file", GeneratorOptions(accessLevel: .internal, singleFile: true)),
        ("package-additional-import", GeneratorOptions(accessLevel: .package, additionalImports: ["BookKit"])),
    ]

    @Test(arguments: ["Books", "Everything"], 0..<2)
    func optionVariation_matchesItsGolden(_ folder: String, _ variation: Int) throws {
        let sample = try #require(SampleModel.all.first { $0.folder == folder })
        let (name, options) = Self.variations[variation]
        let result = try SwiftGenerator(options: options).generate(sample.load().model)
        for file in result.files {
            try expectGolden(file.contents, "\(folder)-\(name)/\(file.name)", in: SampleModel.goldens)
        }
        if options.singleFile { #expect(result.files.map(\.name) == ["\(folder).swift"]) }
    }

    @Test func output_doesNotDependOnWhereTheModelLies() throws {
        let absolute = try SampleModel.all[2].load().model
        var relative = absolute
        relative.path = "Models/Everything.xcdatamodeld/Everything 2.xcdatamodel/contents"
        let generator = try SwiftGenerator()
        #expect(generator.generate(relative).files == generator.generate(absolute).files)
        #expect(generator.fileNames(for: absolute) == generator.generate(absolute).files.map(\.name))
    }

    @Test func hostileNames_areRenamedWithADiagnosticEach() throws {
        let sample = try #require(SampleModel.all.first { $0.folder == "HostileNames" })
        let messages = try SwiftGenerator().generate(sample.load().model).diagnostics.map(\.description)
        let expected = [
            "contents:3:5: note: class name 'Data' of entity 'Data' cannot be used in Swift as it is; generated as 'DataEntity'",
            "contents:6:9: note: property 'description' clashes with a Swift or ManagedObject name; generated as 'description_'",
            "contents:17:9: warning: property 'entityName' clashes with a Swift or ManagedObject name; generated as 'entityName_'",
            "contents:20:9: warning: property 'Attributes' clashes with a Swift or ManagedObject name; generated as 'Attributes_'",
        ]
        for message in expected {
            #expect(messages.contains { $0.hasSuffix(message) }, "\(message)")
        }
    }
}
