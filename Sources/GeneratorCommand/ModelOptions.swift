import ArgumentParser
import DataModel
import DataModelParser

/// The model argument every subcommand takes.
package struct ModelOptions: ParsableArguments {
    @Argument(help: "An .xcdatamodeld bundle, an .xcdatamodel folder, a 'contents' file, or (datamodel-gen) a store file, for the model it carries.")
    package var model: String

    @Option(
        name: .customLong("model-version"),
        help: ArgumentHelp(
            "The version of an .xcdatamodeld to read instead of its current one.", valueName: "name"))
    package var modelVersion: String?

    package init() {}

    /// Loads and validates the model; a model that cannot be read is reported and ends the command.
    package func load() throws -> ModelLoader.Result {
        try Self.load(model, version: modelVersion)
    }

    /// Loads and validates the model at `path`; a model that cannot be read is reported and ends the command.
    package static func load(_ path: String, version: String?) throws -> ModelLoader.Result {
        if let carried = try CarriedModels.model(at: path, version: version) { return carried }
        do {
            return try ModelLoader().load(path, version: version)
        } catch {
            StandardError.print(error.diagnostic)
            throw ExitCode.failure
        }
    }

    /// Every version of the bundle at `path`, oldest first, and the position of the one to
    /// generate: the bundle's current version, or `version` taken as current. A bundle that cannot
    /// be read is reported and ends the command.
    package static func loadVersions(_ path: String, current version: String?) throws -> (versions: [ModelLoader.Result], current: Int) {
        if let carried = try CarriedModels.model(at: path, version: version) { return ([carried], 0) }
        do {
            return try ModelLoader().loadVersions(path, current: version)
        } catch {
            StandardError.print(error.diagnostic)
            throw ExitCode.failure
        }
    }
}
