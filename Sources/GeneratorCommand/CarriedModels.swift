import ArgumentParser
import DataModel
import DataModelParser
import Foundation

/// Where the commands find the model a store file carries, so that a store stands wherever a
/// model is expected. `datamodel-gen`, which reads stores, installs the reader before any command
/// is parsed; the build plugin's tool, which reads only model bundles, has none.
package enum CarriedModels {
    /// Reads the model the store at a path carries, or `nil` when the path is no store file.
    package typealias Reader = @Sendable (String) throws -> Model?

    /// Set once, by the tool's entry point, before any command is parsed.
    nonisolated(unsafe) private static var reader: Reader?

    package static func install(_ read: @escaping Reader) {
        reader = read
    }

    /// Whether the file at `path` is an SQLite database, as every store file is.
    package static func isStoreFile(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 16)) == Data("SQLite format 3\0".utf8)
    }

    /// The model the store at `path` carries, validated, or `nil` when `path` is no store file. A
    /// store that cannot be read, or a version asked of one, is reported and ends the command.
    static func model(at path: String, version: String?) throws -> ModelLoader.Result? {
        let model: Model?
        do {
            model = try reader?(path)
        } catch {
            StandardError.write("\(path): error: \(error)")
            throw ExitCode.failure
        }
        guard let model else { return nil }
        if let version {
            StandardError.write("\(path): error: a store carries one model, so --model-version \(version) cannot be read from it")
            throw ExitCode.failure
        }
        return ModelLoader.Result(model: model, diagnostics: located(ModelValidator().validate(model), at: path))
    }

    /// Diagnostics about a store's model, located at the store: its model has no lines.
    package static func located(_ diagnostics: [Diagnostic], at path: String) -> [Diagnostic] {
        diagnostics.map { diagnostic in
            var located = diagnostic
            if located.location.file.isEmpty { located.location = SourceLocation(file: path) }
            return located
        }
    }
}
