import ArgumentParser
import DataModel
import DataModelParser
import Foundation
import GeneratorCommand
import StoreMigration

/// `datamodel-gen lint-mapping MAPPING --model BUNDLE`: a mapping model checked against the two
/// versions it connects.
struct LintMapping: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint-mapping",
        abstract: "Checks a mapping model (.xcmappingmodel) against the two model versions it connects.",
        discussion: """
            Finds the versions of BUNDLE the mapping connects from the snapshots of both models it \
            keeps (its header's paths are often stale), or takes them from --source-version and \
            --destination-version, and prints every problem compiler-style: entities and properties \
            the versions lack, value expressions that do not read, $source key paths the source \
            entity does not have, $entityPolicy calls without a policy class, and mapping names \
            that name no entity mapping. Exits with 1 when there is an error.

            Examples:
              datamodel-gen lint-mapping Models/V1ToV2.xcmappingmodel --model Models/App.xcdatamodeld
              datamodel-gen lint-mapping V4toV5.xcmappingmodel --model App.xcdatamodeld --source-version "App v4" --destination-version "App v5"
            """
    )

    @Argument(help: "The .xcmappingmodel bundle (or its xcmapping.xml).")
    var mapping: String

    @Option(help: ArgumentHelp("The model bundle (.xcdatamodeld) whose versions the mapping connects.", valueName: "bundle"))
    var model: String

    @Option(name: .customLong("source-version"), help: ArgumentHelp("The version the mapping starts from, when it cannot be told.", valueName: "name"))
    var sourceVersion: String?

    @Option(name: .customLong("destination-version"), help: ArgumentHelp("The version the mapping leads to, when it cannot be told.", valueName: "name"))
    var destinationVersion: String?

    func run() throws {
        let loaded: (mapping: ParsedMappingModel, versions: [Model])
        do {
            loaded = try load()
        } catch {
            StandardError.print(error.diagnostic)
            throw ExitCode.failure
        }
        let (parsed, versions) = loaded
        let found = parsed.mappingModel.connectedVersions(among: versions)
        let named = { (name: String?) in name.flatMap { name in versions.firstIndex { $0.versionName == name } } }
        guard let source = named(sourceVersion) ?? found?.source, let destination = named(destinationVersion) ?? found?.destination else {
            StandardError.print(.error(
                "cannot tell which versions of \(model) the mapping connects (\(versions.compactMap(\.versionName).joined(separator: ", "))); "
                    + "name them with --source-version and --destination-version", at: parsed.mappingModel.location))
            throw ExitCode.failure
        }
        print("\(mapping): \(versions[source].versionName ?? "?") → \(versions[destination].versionName ?? "?"), "
            + "\(parsed.mappingModel.entityMappings.count) entity mappings")
        let diagnostics = (parsed.diagnostics + MappingModelLinter(source: versions[source], destination: versions[destination])
            .diagnostics(of: parsed.mappingModel)).sortedByLocation()
        diagnostics.forEach(StandardError.print)
        if let summary = StandardError.summary(of: diagnostics) { StandardError.write(summary) }
        if diagnostics.containsErrors { throw ExitCode.failure }
    }

    private func load() throws(ModelLoadingError) -> (mapping: ParsedMappingModel, versions: [Model]) {
        (try MappingModelParser.load(mapping), try Self.versions(of: model))
    }

    /// Every version of the bundle at `path`, in name order; a single model for a version folder.
    static func versions(of path: String) throws(ModelLoadingError) -> [Model] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".xcdatamodel") }.sorted()
        guard !names.isEmpty else { return [try ModelLoader().load(path).model] }
        var versions: [Model] = []
        for name in names { versions.append(try ModelLoader().load(path, version: String(name.dropLast(".xcdatamodel".count))).model) }
        return versions
    }
}
