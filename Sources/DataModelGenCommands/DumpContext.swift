import ArgumentParser
import DataModel
import Foundation
import GeneratorCommand
import SwiftGenerator

/// `datamodel-gen dump-context MODEL`: what templates see, as JSON.
struct DumpContext: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump-context",
        abstract: "Prints the template context of a model as JSON, or a default template, for template authors.",
        discussion: """
            The context is what 'generate' renders: the model with every fact a template needs \
            already computed — class and member names escaped for Swift, Swift types, slots, \
            documentation lines, typed fetch request parameters. The entity template sees one entity \
            under 'entity', with 'access', 'modelName' and 'typeName' beside it.

            Examples:
              datamodel-gen dump-context Models/Books.xcdatamodeld
              datamodel-gen dump-context Models/Books.xcdatamodeld --access-level internal | jq '.entities[0]'
              datamodel-gen dump-context --template entity > Templates/entity.mustache
            """
    )

    @Argument(help: "An .xcdatamodeld bundle, an .xcdatamodel folder, or a 'contents' file.")
    var model: String?

    @Option(name: .customLong("model-version"), help: ArgumentHelp("The version of an .xcdatamodeld to read.", valueName: "name"))
    var modelVersion: String?

    @OptionGroup var generation: GeneratorArguments

    @Option(help: ArgumentHelp("Print this default template instead (header, entity or model).", valueName: "name"))
    var template: String?

    func validate() throws {
        if model == nil, template == nil { throw ValidationError("Give a MODEL, or --template NAME.") }
    }

    func run() throws {
        if let template {
            guard let text = TemplateSet.defaultText(of: template) else {
                throw ValidationError("No template is named '\(template)'; templates are \(TemplateSet.names.joined(separator: ", ")).")
            }
            print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
            return
        }
        guard let model else { return }
        // Every version, as `generate` reads them: the context lists them for the model template.
        let (versions, current) = try ModelOptions.loadVersions(model, current: modelVersion)
        let loaded = versions[current]
        let (mappingModels, mappingDiagnostics) = try MappingModelInputs.load(near: model, named: [], versions: versions.map(\.model))
        let (context, diagnostics) = try generation.generator().context(
            for: loaded.model, versions: versions.map(\.model), mappingModels: mappingModels)
        (loaded.diagnostics + mappingDiagnostics + diagnostics).sortedByLocation().forEach(StandardError.print)
        if loaded.diagnostics.containsErrors { throw ExitCode.failure }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(context), as: UTF8.self))
    }
}
