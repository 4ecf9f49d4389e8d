import ArgumentParser
import Foundation
import SwiftGenerator

/// The options that shape generated code, shared by `generate` and `dump-context`.
package struct GeneratorArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Access level of the generated declarations.", valueName: "public|package|internal"))
    var accessLevel: GeneratorOptions.AccessLevel = .public

    @Option(name: .customLong("additional-import"), help: ArgumentHelp(
        "A module every generated file imports (for your own types named in userInfo). Repeatable.", valueName: "module"))
    var additionalImports: [String] = []

    @Option(help: ArgumentHelp(
        """
        How the code is split into files. entity-files: one per entity, named after its class, and \
        the model file. single-file: one file named after the model. incremental: <Model>+<Entity>.swift \
        per entity, holding its class and its part of the compiled model, and <Model>.swift, so that \
        a change to one entity changes one file (what the build plugin writes).
        """, valueName: "entity-files|single-file|incremental"))
    var layout: GeneratorOptions.Layout = .entityFiles

    @Flag(help: "Write one file for the whole model: the same as --layout single-file.")
    var singleFile = false

    @Flag(name: .customLong("no-observation"), help: ArgumentHelp(
        """
        Generate classes whose property reads do not register with Observation \
        (withObservationTracking, SwiftUI) and whose objects never notify: for code that never \
        observes them and reads many values.
        """))
    var withoutObservation = false

    @Option(help: ArgumentHelp(
        "A folder of .mustache files replacing default templates of the same name (header, entity, model).",
        valueName: "dir"))
    var templates: String?

    package init() {}

    package var options: GeneratorOptions {
        GeneratorOptions(
            accessLevel: accessLevel, additionalImports: additionalImports, layout: singleFile ? .singleFile : layout,
            isObservable: !withoutObservation)
    }

    /// The generator with the user's templates; a template that cannot be read or parsed ends the command.
    package func generator() throws -> SwiftGenerator {
        do {
            return try SwiftGenerator(options: options, templates: TemplateSet(overrides: try overrides()))
        } catch let error as TemplateError {
            let directory = templates.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? ""
            StandardError.write(directory + error.description)
            throw ExitCode.failure
        }
    }

    /// Template texts by name from `--templates`.
    private func overrides() throws -> [String: String] {
        guard let templates else { return [:] }
        let directory = URL(fileURLWithPath: templates)
        let files: [URL]
        do {
            files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        } catch {
            StandardError.write("\(templates): error: cannot read the templates folder: \(error.localizedDescription)")
            throw ExitCode.failure
        }
        var result: [String: String] = [:]
        for file in files where file.pathExtension == "mustache" {
            do {
                result[file.deletingPathExtension().lastPathComponent] = try String(contentsOf: file, encoding: .utf8)
            } catch {
                StandardError.write("\(file.path): error: cannot read the template: \(error.localizedDescription)")
                throw ExitCode.failure
            }
        }
        return result
    }
}

extension GeneratorOptions.AccessLevel: ExpressibleByArgument {}
extension GeneratorOptions.Layout: ExpressibleByArgument {}
