import DataModel

/// One migration between two versions of a model, each committed on its own: a mapping model's,
/// a stage's, or a lightweight one straight to the next version a stage or mapping starts from.
struct MigrationStep {
    /// Positions in the model's versions.
    var source: Int
    var destination: Int
    var stage: MigrationStage?
    var mapping: MappingModel?

    /// The steps from the version at `start` to the one at `target`, following the mapping models
    /// of `options` and then those compiled with the model (`bundled`), and `options`' stages,
    /// where they apply.
    static func steps(
        from start: Int, to target: Int, of versions: [Model], options: MigrationOptions, bundled: [MappingModel]
    ) throws(StoreError) -> [MigrationStep] {
        let mappings = (options.mappingModels + bundled).compactMap { mapping in
            mapping.connectedVersions(among: versions).flatMap { $0.source < $0.destination ? (mapping, $0.source, $0.destination) : nil }
        }
        var steps: [MigrationStep] = []
        var current = start
        while current != target {
            let name = versions[current].versionLabel
            if let (mapping, _, next) = mappings.first(where: { $0.1 == current && $0.2 <= target }) {
                steps.append(MigrationStep(source: current, destination: next, mapping: mapping))
                current = next
            } else if let stage = options.stages.first(where: { $0.sourceVersion == name }) {
                guard let next = versions.firstIndex(where: { $0.versionLabel == stage.destinationVersion }), next > current, next <= target
                else { throw .migration(.noStageFrom(version: name)) }
                steps.append(MigrationStep(source: current, destination: next, stage: stage))
                current = next
            } else {
                let stageStarts = options.stages.compactMap { stage in versions.firstIndex { $0.versionLabel == stage.sourceVersion } }
                let next = (stageStarts + mappings.map(\.1)).filter { $0 > current && $0 < target }.min() ?? target
                steps.append(MigrationStep(source: current, destination: next))
                current = next
            }
        }
        return steps
    }
}
