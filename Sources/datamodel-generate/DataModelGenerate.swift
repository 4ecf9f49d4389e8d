import ArgumentParser
import GeneratorCommand

/// The build plugins' tool: `datamodel-gen generate` alone. An app's build compiles the generator
/// and its model reader, not the store commands and the PostgreSQL client they link.
@main
struct DataModelGenerate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "datamodel-generate",
        abstract: "Generates typed Swift for DataStore from Core Data models: the build plugins' tool (datamodel-gen generate).",
        subcommands: [Generate.self]
    )
}
