import ArgumentParser
import DataModel
import DataModelParser
import Foundation
import GeneratorCommand
import StoreMigration

/// `datamodel-gen new-mapping BUNDLE --from V1 --to V2 -o X.xcmappingmodel`: a new mapping model
/// between two versions, as Xcode's *New File › Mapping Model* makes one.
struct NewMapping: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-mapping",
        abstract: "Writes a mapping model (.xcmappingmodel) between two versions of a model, as Xcode's New Mapping Model does.",
        discussion: """
            Each concrete entity of the destination version that comes from an entity of the \
            source version (by name or renaming identifier) gets an entity mapping named \
            <Source>To<Destination> that maps its stored attributes and relationships: a property \
            of the same name takes the source's value, a renamed one gets the expression that \
            reads it, a new one is left for a policy or an expression. Name a migration policy \
            for an entity mapping with --policy and give a property its value with --expression; \
            the result is checked as lint-mapping checks it, and nothing is written when it has \
            an error. An existing bundle is replaced only with --force.

            Put the bundle beside the model (or in a folder below it): migrate, the build plugin \
            and generate find it there.

            Examples:
              datamodel-gen new-mapping Models/Library.xcdatamodeld --from "Library 1" --to "Library 2" -o Models/Library1to2.xcmappingmodel
              datamodel-gen new-mapping Models/Library.xcdatamodeld --from "Library 1" --to "Library 2" -o Models/Library1to2.xcmappingmodel \\
                  --policy BookToBook=BookPolicy --expression 'BookToBook.title=FUNCTION($entityPolicy, "titleFromName:", $source.name)'
            """
    )

    @Argument(help: "The model bundle (.xcdatamodeld) holding both versions.")
    var model: String

    @Option(help: ArgumentHelp("The version the mapping starts from.", valueName: "version"))
    var from: String

    @Option(help: ArgumentHelp("The version the mapping leads to.", valueName: "version"))
    var to: String

    @Option(name: [.short, .long], help: ArgumentHelp("The .xcmappingmodel bundle to write.", valueName: "xcmappingmodel"))
    var output: String

    @Option(name: .customLong("policy"), help: ArgumentHelp("An entity mapping's migration policy class (repeatable).", valueName: "MAPPING=CLASS"))
    var policies: [String] = []

    @Option(name: .customLong("expression"), help: ArgumentHelp("A property's value expression (repeatable).", valueName: "MAPPING.PROPERTY=EXPRESSION"))
    var expressions: [String] = []

    @Flag(help: "Replace the mapping model at the output path, whatever edits it holds.")
    var force = false

    func validate() throws {
        guard output.hasSuffix(".xcmappingmodel") else { throw ValidationError("the output must be an .xcmappingmodel bundle") }
        guard from != to else { throw ValidationError("--from and --to name the same version") }
        guard force || !FileManager.default.fileExists(atPath: output) else {
            throw ValidationError("\(output) exists; pass --force to replace it")
        }
    }

    func run() throws {
        let loaded = try ModelOptions.loadVersions(model, current: nil)
        let versions = loaded.versions.map(\.model)
        func version(_ name: String) throws -> Model {
            guard let found = versions.first(where: { $0.versionName == name }) else {
                throw ValidationError("\(model) has no version '\(name)'; it has \(versions.compactMap(\.versionName).joined(separator: ", "))")
            }
            return found
        }
        let source = try version(from)
        let destination = try version(to)
        let bundleName = URL(fileURLWithPath: model).lastPathComponent
        var mapping = MappingModel.inferred(
            from: source, to: destination, sourceModelPath: "\(bundleName)/\(from).xcdatamodel", destinationModelPath: "\(bundleName)/\(to).xcdatamodel",
            path: output + "/xcmapping.xml")
        try apply(to: &mapping)
        let diagnostics = MappingModelLinter(source: source, destination: destination).diagnostics(of: mapping)
        diagnostics.forEach(StandardError.print)
        guard !diagnostics.containsErrors else {
            StandardError.write("nothing written: the mapping model has errors")
            throw ExitCode.failure
        }
        do {
            try MappingModelWriter.write(mapping, toBundle: output)
        } catch {
            StandardError.write("error: \(output): \(error)")
            throw ExitCode.failure
        }
        print("\(output): \(from) → \(to), \(mapping.entityMappings.count) entity mappings")
    }

    /// Sets the policies and expressions the options name.
    private func apply(to mapping: inout MappingModel) throws {
        func index(of name: Substring, option: String) throws -> Int {
            guard let index = mapping.entityMappings.firstIndex(where: { $0.name == name }) else {
                throw ValidationError("\(option) names \(name), which is not one of the entity mappings: "
                    + mapping.entityMappings.map(\.name).joined(separator: ", "))
            }
            return index
        }
        for policy in policies {
            guard let equals = policy.firstIndex(of: "="), !policy[policy.index(after: equals)...].isEmpty else {
                throw ValidationError("--policy \(policy): write MAPPING=CLASS")
            }
            mapping.entityMappings[try index(of: policy[..<equals], option: "--policy")].migrationPolicyClassName = String(policy[policy.index(after: equals)...])
        }
        for assignment in expressions {
            guard let equals = assignment.firstIndex(of: "="), let dot = assignment[..<equals].firstIndex(of: ".") else {
                throw ValidationError("--expression \(assignment): write MAPPING.PROPERTY=EXPRESSION")
            }
            let entityIndex = try index(of: assignment[..<dot], option: "--expression")
            let property = String(assignment[assignment.index(after: dot)..<equals])
            let text = String(assignment[assignment.index(after: equals)...])
            var entityMapping = mapping.entityMappings[entityIndex]
            if let slot = entityMapping.attributeMappings.firstIndex(where: { $0.name == property }) {
                entityMapping.attributeMappings[slot].valueExpression = text
            } else if let slot = entityMapping.relationshipMappings.firstIndex(where: { $0.name == property }) {
                entityMapping.relationshipMappings[slot].valueExpression = text
            } else {
                throw ValidationError("--expression \(assignment): \(entityMapping.name) maps no property \(property)")
            }
            mapping.entityMappings[entityIndex] = entityMapping
        }
    }
}
