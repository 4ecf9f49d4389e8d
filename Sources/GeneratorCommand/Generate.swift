import ArgumentParser
import DataModel
import DataModelParser
import Foundation
import SwiftGenerator

/// `datamodel-gen generate MODEL --output-directory DIR`: typed Swift classes for `DataStore`.
package struct Generate: ParsableCommand {
    package static let configuration = CommandConfiguration(
        abstract: "Generates typed Swift classes, the compiled model and typed fetch requests for DataStore.",
        discussion: """
            Writes one file per entity (its class: typed properties, keys for typed predicates, \
            relationship mutators that keep inverses, fetched properties as requests, name constants) \
            and one model file named after the model (the model compiled into Swift values, so the \
            runtime never reads XML, and a typed builder per fetch request template). For an \
            .xcdatamodeld of several versions, the model file also compiles every other version, \
            which migration needs to open stores that they wrote. --layout single-file writes one \
            file; --layout incremental (what the build plugin writes) names a file after the model \
            and each entity, <Model>+<Entity>.swift, holding its class and its part of the compiled \
            model, so that a change to one entity changes one file. Files are \
            written only when their contents change, so builds stay incremental; files of entities \
            that no longer exist are left alone — use a folder of its own.

            Mapping models (.xcmappingmodel) in the bundle's folder and its subfolders, and those \
            named with --mapping, are compiled into the model file when they connect an earlier \
            version to a later one: opening a store with the generated model runs them, as Core \
            Data runs the mapping models it finds in the app. Each is checked as lint-mapping \
            checks it. For each entity mapping that names a migration policy, the model file has \
            typed keys of its source and destination entities in their versions \
            (<Model>.Migrations.<Mapping>.Source.<property>).

            Swift types come from the model: optional attributes become optionals, to-many \
            relationships sets, ordered ones arrays. Name your own type for an attribute with the \
            userInfo key 'datamodel.type' (mogenerator's attributeValueScalarType and \
            attributeValueClassName and SwiftGen's enumType and RawType are read too): an \
            AttributeStorable type, or a Codable one for a transformable attribute.

            Templates: print a default with 'datamodel-gen dump-context --template entity', copy it \
            into a folder, edit it, and pass --templates FOLDER. Defaults stay available as \
            default-header, default-entity and default-model, so an override can replace one block:
              {{<default-entity}}{{$extraMembers}}    var label: String { title }{{/extraMembers}}{{/default-entity}}

            A model with errors writes nothing and exits with 1.

            Examples:
              datamodel-gen generate Models/Books.xcdatamodeld --output-directory Sources/App/Generated
              datamodel-gen generate Models/Books.xcdatamodeld -o Generated --access-level internal --single-file
              datamodel-gen generate App/Model.xcdatamodeld -o Generated --templates Templates --dry-run
            """
    )

    @OptionGroup var model: ModelOptions
    @OptionGroup var generation: GeneratorArguments

    @Option(name: [.short, .customLong("output-directory")], help: ArgumentHelp("The folder to write the files into.", valueName: "dir"))
    var outputDirectory: String

    @Option(name: .customLong("mapping"), help: ArgumentHelp("A mapping model to compile, besides those found beside the bundle (repeatable).", valueName: "xcmappingmodel"))
    var mappings: [String] = []

    @Flag(help: "Print the files that would change instead of writing them.")
    var dryRun = false

    @Flag(help: "Treat warnings as errors.")
    var warningsAsErrors = false

    package init() {}

    package func run() throws {
        let (versions, current) = try ModelOptions.loadVersions(model.model, current: model.modelVersion)
        let loaded = versions[current]
        let generator = try generation.generator()
        // A store carries one version, which no mapping model beside it leads from.
        let isStore = CarriedModels.isStoreFile(model.model)
        let (mappingModels, mappingDiagnostics) = isStore
            ? ([], [])
            : try MappingModelInputs.load(near: model.model, named: mappings, versions: versions.map(\.model))
        var result = generator.generate(loaded.model, versions: versions.map(\.model), mappingModels: mappingModels)
        if isStore { result.diagnostics = CarriedModels.located(result.diagnostics, at: model.model) }
        // The other versions are the bundle's history: only an error in one matters, as the
        // generated code carries their definitions for migration.
        let otherErrors = versions.indices.filter { $0 != current }.flatMap { versions[$0].diagnostics.filter(\.isError) }
        let diagnostics = loaded.diagnostics + otherErrors + mappingDiagnostics + result.diagnostics
        diagnostics.sortedByLocation().forEach(StandardError.print)
        if diagnostics.containsErrors || (warningsAsErrors && diagnostics.contains { $0.severity == .warning }) {
            throw ExitCode.failure
        }
        try GeneratedFileWriter(directory: outputDirectory, dryRun: dryRun).write(result.files)
    }
}
