import DataModel
import Foundation
import GRDB

/// One step of the way a migration takes from a store's version to the target, as
/// ``PersistentStore/migrationSteps(at:model:to:options:)`` finds it before anything runs.
public struct MigrationStepSummary: Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// Inferred from the two versions.
        case lightweight
        /// A stage the options name, with code before or after the inferred migration.
        case stage
        /// A mapping model's, object by object.
        case mapping(MappingModel)
    }

    public var sourceVersion: String
    public var destinationVersion: String
    public var kind: Kind

    public var description: String {
        switch kind {
        case .lightweight: "\(sourceVersion) → \(destinationVersion), lightweight"
        case .stage: "\(sourceVersion) → \(destinationVersion), a custom stage"
        case .mapping(let mapping):
            "\(sourceVersion) → \(destinationVersion) by the mapping model \(mapping.path.replacingOccurrences(of: "/xcmapping.xml", with: "")) "
                + "(\(mapping.entityMappings.count) entity mapping\(mapping.entityMappings.count == 1 ? "" : "s"))"
        }
    }
}

extension PersistentStore {
    /// The steps that migrating the store at `url` to `version` of `model` (the current one when
    /// nil) takes with `options`: its mapping models and stages where they apply, lightweight
    /// migrations elsewhere. Empty for a store at that version. Reads the store only.
    public static func migrationSteps(
        at url: URL, model: ManagedObjectModel, to version: String? = nil, options: MigrationOptions = .automatic
    ) throws(StoreError) -> [MigrationStepSummary] {
        guard FileManager.default.fileExists(atPath: url.path) else { throw .fileNotFound(path: url.path) }
        var configuration = GRDB.Configuration()
        configuration.readonly = true
        let (versions, source, target) = try catching {
            try DatabaseQueue(path: url.path, configuration: configuration).read { db in
                try migrationVersions(of: .sqlite(db), at: url, model: model, target: version)
            }
        }
        return try MigrationStep.steps(from: source, to: target, of: versions, options: options, bundled: model.mappingModels).map { step in
            let kind: MigrationStepSummary.Kind = if let mapping = step.mapping { .mapping(mapping) } else if step.stage != nil { .stage } else { .lightweight }
            return MigrationStepSummary(
                sourceVersion: versions[step.source].versionLabel, destinationVersion: versions[step.destination].versionLabel, kind: kind)
        }
    }
}
