import Foundation
import PackagePlugin

/// Embeds `Templates/*.mustache` into the `SwiftGenerator` module as Swift string literals.
@main
struct TemplateEmbedder: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let directory = context.package.directoryURL.appending(path: "Templates")
        let templates = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "mustache" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "DefaultTemplates.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(templates.count) default templates",
                executable: try context.tool(named: "template-embedder").url,
                arguments: [output.path] + templates.map(\.path),
                inputFiles: templates,
                outputFiles: [output]
            )
        ]
    }
}
