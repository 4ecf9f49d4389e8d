import Foundation
import PackagePlugin

/// Generates the Swift code of every `.xcdatamodeld` / `.xcdatamodel` in a target at build time.
///
/// The generator's incremental layout: `<ModelName>.swift`, and `<ModelName>+<EntityName>.swift` for
/// each entity of the current version, holding its class and its part of the compiled model. The
/// plugin reads the entity names from the model, so the build declares exactly the files the tool
/// writes; the tool rewrites only files whose contents change, so editing one entity recompiles
/// one file, and the compiler can spread the files over cores.
@main
struct DataModelGenerator: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let inputs = try ModelInputs(targetDirectory: target.directoryURL)
        let tool = try context.tool(named: "datamodel-generate").url
        return inputs.models.map { model in
            let directory = context.pluginWorkDirectoryURL
            let outputs = [directory.appending(path: "\(model.name).swift")]
                + ModelEntityNames.of(model.url).map { directory.appending(path: "\(model.name)+\($0).swift") }
            return .buildCommand(
                displayName: "Generating Swift for \(model.url.lastPathComponent)",
                executable: tool,
                arguments: ["generate", model.url.path, "--output-directory", directory.path, "--layout", "incremental"]
                    + inputs.generatorArguments,
                inputFiles: inputs.inputFiles(of: model),
                outputFiles: outputs)
        }
    }
}
