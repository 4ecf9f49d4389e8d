import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-data-model-code`: writes the
/// generated Swift into `Generated/` beside each model, for projects that commit generated code
/// instead of using the build plugin.
@main
struct GenerateDataModelCode: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = Set(extractor.extractOption(named: "target"))
        let tool = try context.tool(named: "datamodel-generate").url
        for target in context.package.targets.compactMap({ $0 as? SourceModuleTarget }) {
            guard targetNames.isEmpty || targetNames.contains(target.name) else { continue }
            let inputs = try ModelInputs(targetDirectory: target.directoryURL)
            for model in inputs.models {
                let output = target.directoryURL.appending(path: "Generated/\(model.name)")
                let process = Process()
                process.executableURL = tool
                process.arguments = ["generate", model.url.path, "--output-directory", output.path]
                    + inputs.generatorArguments + extractor.remainingArguments
                try process.run()
                process.waitUntilExit()
                guard process.terminationStatus == 0 else {
                    throw PluginError("datamodel-generate failed for \(model.url.path)")
                }
                print("Generated \(output.path)")
            }
        }
    }
}
