import Foundation
import PackagePlugin

/// Generates the Swift code of every `.xcdatamodeld` / `.xcdatamodel` in a target at build time.
///
/// One output file per model, `<ModelName>.swift` (the generator's single-file form): the plugin
/// knows it from the model's folder name alone, so the build always declares exactly the files the
/// tool writes, and renaming an entity never leaves a stale file behind.
@main
struct DataModelGenerator: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let inputs = try ModelInputs(targetDirectory: target.directoryURL)
        let tool = try context.tool(named: "datamodel-gen").url
        return inputs.models.map { model in
            let output = context.pluginWorkDirectoryURL.appending(path: "\(model.name).swift")
            return .buildCommand(
                displayName: "Generating Swift for \(model.url.lastPathComponent)",
                executable: tool,
                arguments: ["generate", model.url.path, "--output-directory", context.pluginWorkDirectoryURL.path, "--single-file"]
                    + inputs.generatorArguments,
                inputFiles: inputs.inputFiles(of: model),
                outputFiles: [output])
        }
    }
}
