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
        let loaded = try sample.loadVersions()
        let result = try SwiftGenerator(options: sample.options)
            .generate(loaded.current, versions: loaded.versions, mappingModels: sample.mappingModels())
        #expect(!result.diagnostics.containsErrors)
        let folder = SampleModel.generated.appendingPathComponent(sample.folder)
        let existing = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(Set(existing) == Set(result.files.map(\.name)), "the golden folder holds exactly the generated files")
        for file in result.files {
            try expectGolden(file.contents, file.name, in: folder)
        }
    }

    static let variations: [(name: String, options: GeneratorOptions)] = [
        ("internal-single-file", GeneratorOptions(accessLevel: .internal, layout: .singleFile)),
        ("package-additional-import", GeneratorOptions(accessLevel: .package, additionalImports: ["BookKit"])),
    ]

    @Test(arguments: ["Books", "Everything"], 0..<2)
    func optionVariation_matchesItsGolden(_ folder: String, _ variation: Int) throws {
        let sample = try #require(SampleModel.all.first { $0.folder == folder })
        let (name, options) = Self.variations[variation]
        let loaded = try sample.loadVersions()
        let result = try SwiftGenerator(options: options).generate(loaded.current, versions: loaded.versions)
        for file in result.files {
            try expectGolden(file.contents, "\(folder)-\(name)/\(file.name)", in: SampleModel.goldens)
        }
        if options.layout == .singleFile { #expect(result.files.map(\.name) == ["\(folder).swift"]) }
    }

    @Test func output_doesNotDependOnWhereTheModelLies() throws {
        let absolute = try SampleModel.all[2].loadVersions()
        let relativeVersions = absolute.versions.map { version in
            var relative = version
            relative.path = "Models/Everything.xcdatamodeld/\(version.versionName ?? "").xcdatamodel/contents"
            return relative
        }
        let relative = try #require(relativeVersions.last)
        #expect(relative.versionName == absolute.current.versionName)
        let generator = try SwiftGenerator()
        let absoluteFiles = generator.generate(absolute.current, versions: absolute.versions).files
        #expect(generator.generate(relative, versions: relativeVersions).files == absoluteFiles)
        #expect(generator.fileNames(for: absolute.current) == absoluteFiles.map(\.name))
    }

    @Test func versions_areNamedApartFromTheModelsTypes_andSpelledWithoutBackticks() throws {
        let entity = DataModel.Entity("Versions", className: "Versions")
        let versions = ["Model 1.2", "default", "self", "2"].map { (name: String) in
            DataModel.Model("Shop.xcdatamodeld/\(name).xcdatamodel", versionName: name, entities: [entity])
        }
        let result = try SwiftGenerator().generate(versions[1], versions: versions)
        let text = try #require(result.files.first { $0.name == "Shop.swift" }).contents
        #expect(text.contains("    public static let versions: [DataModel.Model] = [Versions_.model1_2, definition, Versions_.self_, Versions_._2]\n"))
        #expect(text.contains("    public enum Versions_ {\n"))
        #expect(text.contains("        public static let self_: DataModel.Model = { () -> DataModel.Model in\n"))
        #expect(text.contains("            return DataModel.Model(\"self.xcdatamodel\", versionName: \"self\", entities: entities)\n"))
        #expect(text.contains("            Versions.self,\n"), "the class list still names the entity class")
        #expect(result.diagnostics.map(\.message) == [
            "the model's versions other than the current one are generated in 'Versions_': a type of the model is named 'Versions'",
        ])
    }

    @Test func singleVersion_generatesNoVersions() throws {
        let model = DataModel.Model("Model.xcdatamodel", versionName: "Model", entities: [DataModel.Entity("Item")])
        let generator = try SwiftGenerator()
        let files = generator.generate(model).files
        #expect(generator.generate(model, versions: [model]).files == files)
        #expect(!files.contains { $0.contents.contains("versions") })
    }

    /// An entity with the model's own name keeps it; the namespace becomes `<Name>Model`, and a
    /// warning at the entity says so.
    @Test func entityWithTheModelsName_renamesTheNamespace_withAWarning() throws {
        let model = DataModel.Model("Products.xcdatamodel", entities: [DataModel.Entity("Products"), DataModel.Entity("Item")])
        let result = try SwiftGenerator().generate(model)
        #expect(result.diagnostics.map(\.message) == [
            "entity 'Products' generates the type 'Products', the model's own name; the model's namespace is generated as 'ProductsModel' "
                + "(open stores with 'ProductsModel.model')",
        ])
        #expect(result.diagnostics.map(\.severity) == [.warning])
        #expect(result.files.contains { $0.contents.contains("public enum ProductsModel {") })
        #expect(try SwiftGenerator().generate(DataModel.Model("Shop.xcdatamodel", entities: [DataModel.Entity("Products")])).diagnostics.isEmpty)
    }

    /// The storage of a number names the runtime's `CompactOptional` unqualified: an entity of
    /// that name is generated under another class name, so that the storage still means the runtime's.
    @Test func anEntityNamedAfterTheRuntimesStorageType_isRenamed() throws {
        var entity = DataModel.Entity("CompactOptional")
        entity.attributes.append(DataModel.Attribute("price", .double, isOptional: true))
        let result = try SwiftGenerator().generate(DataModel.Model("Shop.xcdatamodel", entities: [entity]))
        #expect(result.diagnostics.map(\.message).contains { $0.hasSuffix("generated as 'CompactOptionalEntity'") })
        let code = result.files.map(\.contents).joined()
        #expect(code.contains("class CompactOptionalEntity: ManagedObject"))
        #expect(code.contains("private var _price: CompactOptional<Double> = nil"))
    }

    @Test func hostileNames_areRenamedWithADiagnosticEach() throws {
        let sample = try #require(SampleModel.all.first { $0.folder == "HostileNames" })
        let messages = try SwiftGenerator().generate(sample.load().model).diagnostics.map(\.description)
        let expected = [
            "contents:3:5: note: class name 'Data' of entity 'Data' cannot be used in Swift as it is; generated as 'DataEntity'",
            "contents:6:9: note: property 'description' clashes with a Swift or ManagedObject name; generated as 'description_'",
            "contents:17:9: warning: property 'entityName' clashes with a Swift or ManagedObject name; generated as 'entityName_'",
            "contents:20:9: warning: property 'visitStoredAttributes' clashes with a Swift or ManagedObject name; generated as 'visitStoredAttributes_'",
        ]
        for message in expected {
            #expect(messages.contains { $0.hasSuffix(message) }, "\(message)")
        }
    }

    @Test func incrementalLayout_namesAFileAfterTheModelAndEachEntity() throws {
        let sample = try #require(SampleModel.all.first { $0.folder == "HostileNames" })
        let model = try sample.load().model
        let generator = try SwiftGenerator(options: GeneratorOptions(layout: .incremental))
        let names = generator.generate(model).files.map(\.name)
        // What the build plugin declares, knowing only the model's folder and its entity names.
        #expect(names == model.entities.map { "HostileNames+\($0.name).swift" } + ["HostileNames.swift"])
        #expect(generator.fileNames(for: model) == names)
    }

    @Test func incrementalLayout_aChangeToOneEntityChangesOnlyItsFile() throws {
        let sample = try #require(SampleModel.all.first { $0.folder == "Everything" })
        let loaded = try sample.loadVersions()
        var changed = loaded.current
        let index = try #require(changed.entities.firstIndex { $0.name == "Tag" })
        changed.entities[index].attributes.append(DataModel.Attribute("color", .string, isOptional: true))
        let generator = try SwiftGenerator(options: GeneratorOptions(layout: .incremental))
        let before = generator.generate(loaded.current, versions: loaded.versions).files
        let after = generator.generate(changed, versions: loaded.versions.dropLast() + [changed]).files
        #expect(before.map(\.name) == after.map(\.name))
        let differing = zip(before, after).filter { $0.contents != $1.contents }.map(\.0.name)
        #expect(differing == ["Everything+Tag.swift"])
        #expect(after.first { $0.name == "Everything+Tag.swift" }?.contents.contains("DataModel.Attribute(\"color\", .string, isOptional: true)") == true)
    }
}
