import DataModel

/// One migration between two versions of a model, each committed on its own: a mapping model's,
/// a stage's, or a lightweight one straight to the next version a stage or mapping starts from.
struct MigrationStep {
    /// Positions in the model's versions.
    var source: Int
    var destination: Int
    var stage: MigrationStage?
    var mapping: MappingModel?

    /// The steps from the version at `start` to the one at `target`: from each version, the
    /// mapping model `options` names for it, else `options`' stage from it, else a mapping model
    /// compiled with the model (`bundled`), else a lightweight migration to the next version one of
    /// those starts from. What the app names in its options comes first, so that a stage written
    /// for a step keeps running when a mapping model for the same step lies beside the model.
    static func steps(
        from start: Int, to target: Int, of versions: [Model], options: MigrationOptions, bundled: [MappingModel]
    ) throws(StoreError) -> [MigrationStep] {
        func connections(_ mappings: [MappingModel]) -> [(mapping: MappingModel, source: Int, destination: Int)] {
            mappings.compactMap { mapping in
                mapping.connectedVersions(among: versions).flatMap { $0.source < $0.destination ? (mapping, $0.source, $0.destination) : nil }
            }
        }
        let named = connections(options.mappingModels), compiled = connections(bundled)
        func mapping(from version: Int, in mappings: [(mapping: MappingModel, source: Int, destination: Int)]) -> (MappingModel, Int)? {
            mappings.first { $0.source == version && $0.destination <= target }.map { ($0.mapping, $0.destination) }
        }
        var steps: [MigrationStep] = []
        var current = start
        while current != target {
            let name = versions[current].versionLabel
            let stage = options.stages.first { $0.sourceVersion == name }
            if let (mapping, next) = mapping(from: current, in: named) ?? (stage == nil ? mapping(from: current, in: compiled) : nil) {
                steps.append(MigrationStep(source: current, destination: next, mapping: mapping))
                current = next
            } else if let stage {
                guard let next = versions.firstIndex(where: { $0.versionLabel == stage.destinationVersion }), next > current, next <= target
                else { throw .migration(.noStageFrom(version: name)) }
                steps.append(MigrationStep(source: current, destination: next, stage: stage))
                current = next
            } else {
                let stageStarts = options.stages.compactMap { stage in versions.firstIndex { $0.versionLabel == stage.sourceVersion } }
                let next = (stageStarts + (named + compiled).map(\.source)).filter { $0 > current && $0 < target }.min() ?? target
                steps.append(MigrationStep(source: current, destination: next))
                current = next
            }
        }
        return steps
    }
}
