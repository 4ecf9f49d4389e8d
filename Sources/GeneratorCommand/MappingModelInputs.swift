import ArgumentParser
import DataModel
import DataModelParser
import Foundation
import StoreMigration

/// The mapping models `generate` compiles into a model's file (and `dump-context` shows): those
/// beside the model bundle and those named with `--mapping`.
package enum MappingModelInputs {
    /// The mapping models beside the bundle at `bundlePath` and those `named`, each once, with what
    /// reading them and checking them against the `versions` they connect found. One found beside
    /// the bundle may be another model's: it is left out, with nothing said, unless it connects
    /// two of `versions`; one that cannot be read is left out with a warning. One named must be
    /// read, and is left out with a warning when it connects none.
    package static func load(near bundlePath: String, named mappings: [String], versions: [Model]) throws -> ([MappingModel], [Diagnostic]) {
        let named = Set(mappings.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        var paths: [String] = []
        for path in MappingModelParser.mappingModelPaths(near: bundlePath) + mappings {
            let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
            if !paths.contains(standardized) { paths.append(standardized) }
        }
        let bundleName = URL(fileURLWithPath: bundlePath).standardizedFileURL.lastPathComponent
        var found: [MappingModel] = []
        var diagnostics: [Diagnostic] = []
        for path in paths {
            let isNamed = named.contains(path)
            let parsed: ParsedMappingModel
            do {
                parsed = try MappingModelParser.load(path)
            } catch {
                guard !isNamed else {
                    StandardError.print(error.diagnostic)
                    throw ExitCode.failure
                }
                diagnostics.append(.warning("\(error.diagnostic.message); the mapping model is not compiled", at: error.diagnostic.location))
                continue
            }
            let mapping = parsed.mappingModel
            // Without snapshots a mapping tells its versions by their names alone, which another
            // bundle's versions may have too: one found must also name this bundle.
            let namesThisBundle = mapping.sourceSnapshot != nil || mapping.sourceModelPath?.contains(bundleName) == true
            guard let (source, destination) = mapping.connectedVersions(among: versions), source < destination, isNamed || namesThisBundle else {
                if isNamed {
                    diagnostics.append(.warning(
                        "the mapping model connects no earlier version of \(bundlePath) to a later one; it is not compiled", at: mapping.location))
                }
                continue
            }
            found.append(mapping)
            diagnostics += parsed.diagnostics
            diagnostics += MappingModelLinter(source: versions[source], destination: versions[destination]).diagnostics(of: mapping)
        }
        return (found, diagnostics)
    }
}
