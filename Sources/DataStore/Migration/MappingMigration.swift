import DataModel
import Foundation
import GRDB

/// A migration that runs a mapping model, as Core Data's migration manager runs one: the store is
/// read at the source version, every object is made again in a new store at the destination
/// version — entity mappings in order, each object's attributes first, then, once every object
/// exists, its relationships, then each policy's validation — and the new store, saved, takes the
/// old one's place in one step. Until then the store is untouched, so a failure leaves it whole.
enum MappingMigration {
    static func run(
        _ mapping: MappingModel, from source: Model, to destination: Model, database: some DatabaseWriter, url: URL,
        model: ManagedObjectModel, options: MigrationOptions
    ) throws(StoreError) {
        let made = url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".mapping")
        removeStoreFiles(at: made)
        defer { removeStoreFiles(at: made) }
        do {
            let sourceStore = try PersistentStore.readOnly(url: url, model: ManagedObjectModel(model: source))
            try makeStore(mapping, from: sourceStore, source: source, to: destination, at: made, model: model, options: options)
        }
        // The stores are closed: the new file replaces the store's content in one transaction.
        try PersistentStore.catching { try DatabaseQueue(path: made.path).backup(to: database) }
    }

    /// Makes every object of `sourceStore`, a store at the mapping's source version, again in a
    /// new SQLite store at `made`, at the destination version; closes that store when done. A
    /// policy the app does not provide stops it before anything is read.
    static func makeStore(
        _ mapping: MappingModel, from sourceStore: PersistentStore, source: Model, to destination: Model, at made: URL,
        model: ManagedObjectModel, options: MigrationOptions
    ) throws(StoreError) {
        let policies = try policies(of: mapping, in: options)
        do {
            // The new store's saves need not last through a crash, which discards it: only the
            // copy over the old store must, and that copy is the old store's own transaction.
            let destinationStore = try PersistentStore(
                url: made, model: destination == model.model ? model : ManagedObjectModel(model: destination), migration: .disabled,
                pragmas: ["synchronous": "OFF"])
            let manager = MigrationManager(
                mappingModel: mapping, sourceModel: source, destinationModel: destination, sourceContext: sourceStore.newContext(),
                destinationContext: destinationStore.newContext(), policies: policies)
            try run(manager, policies: policies, batchSize: options.mappingBatchSize)
        } catch let error as StoreError {
            throw error
        } catch {
            throw PersistentStore.typed(error) { .custom(message: $0) }
        }
    }

    /// Objects made or linked between saves of the new store: what bounds a migration's memory,
    /// whatever the number of objects (a batch of this size takes a few megabytes).
    static let batchSize = 5_000

    /// Core Data's three stages, each over every entity mapping in order, in batches: the new
    /// store is saved after each batch, and what breaks the model's rules is judged once every
    /// object is linked, as Core Data validates.
    private static func run(_ manager: MigrationManager, policies: [String: any MigrationPolicy], batchSize: Int) throws {
        let mappings = manager.mappingModel.entityMappings
        func policy(_ mapping: EntityMapping) -> any MigrationPolicy { policies[mapping.name] ?? DefaultMigrationPolicy() }
        manager.destinationContext.deferredValidation = DeferredValidation()
        for mapping in mappings {
            guard let entity = mapping.sourceEntityName, mapping.destinationEntityName != nil else { continue }
            var request = FetchRequest<ManagedObject>(entityName: entity)
            request.includesSubentities = false
            request.predicate = try filter(of: mapping)
            manager.reserve(try manager.sourceContext.count(for: request), for: mapping)
            try manager.sourceContext.forEachPage(of: request, pageSize: batchSize) { sources in
                for source in sources { try policy(mapping).createDestinationInstances(for: source, in: mapping, manager: manager) }
                try manager.saveBatch()
            }
        }
        for mapping in mappings {
            // A mapping without relationships and without a policy of its own links nothing.
            guard !mapping.relationshipMappings.isEmpty || policies[mapping.name] != nil else { continue }
            let (sources, destinations) = manager.pairs(madeBy: mapping)
            for start in stride(from: 0, to: destinations.count, by: batchSize) {
                let batch = start..<min(start + batchSize, destinations.count)
                // The batch's sources are read with one query too, and held while it is linked.
                let sourceObjects = try MigrationManager.objects(withKeys: sources[batch], in: manager.sourceContext)
                try withExtendedLifetime(sourceObjects) {
                    for destination in try MigrationManager.objects(withKeys: destinations[batch], in: manager.destinationContext) {
                        try policy(mapping).createRelationships(for: destination, in: mapping, manager: manager)
                    }
                }
                try manager.saveBatch()
            }
        }
        for mapping in mappings { try policy(mapping).performCustomValidation(for: mapping, manager: manager) }
        try manager.saveBatch()
        try validateTheObjectsThatBrokeARule(in: manager.destinationContext, batchSize: batchSize)
    }

    /// The objects an entity mapping takes: those its filter predicate matches, or all.
    private static func filter(of mapping: EntityMapping) throws -> ObjectPredicate? {
        guard let text = mapping.filterPredicate else { return nil }
        do {
            return try ObjectPredicate(format: text)
        } catch {
            throw MigrationError.custom(message: "\(mapping.name): the filter predicate '\(text)' does not read: \(error)")
        }
    }

    /// Judges again the objects that broke a rule when last saved, read by key a batch at a time:
    /// each is as the migration left it, since any later change was saved and judged in turn.
    private static func validateTheObjectsThatBrokeARule(in context: ObjectContext, batchSize: Int) throws {
        let keys = (context.deferredValidation?.failingKeys ?? []).sorted()
        context.deferredValidation = nil
        var failures: [ValidationFailure] = []
        for start in stride(from: 0, to: keys.count, by: batchSize) where failures.isEmpty {
            failures += context.validate(try MigrationManager.objects(withKeys: keys[start..<min(start + batchSize, keys.count)], in: context))
        }
        guard failures.isEmpty else {
            throw MigrationError.custom(message: "the migrated objects do not save: \(SaveError.validation(failures))")
        }
    }

    /// The policy of each entity mapping that names one, by mapping name: found by the class name
    /// the mapping gives, module-qualified or bare. One the app does not provide stops the
    /// migration before anything is read.
    private static func policies(of mapping: MappingModel, in options: MigrationOptions) throws(StoreError) -> [String: any MigrationPolicy] {
        var policies: [String: any MigrationPolicy] = [:]
        for entityMapping in mapping.entityMappings {
            guard let className = entityMapping.migrationPolicyClassName else { continue }
            let bare = String(className.split(separator: ".").last ?? "")
            guard let make = options.migrationPolicies[className] ?? options.migrationPolicies[bare] else {
                throw .migration(.missingMigrationPolicy(className: className, entityMapping: entityMapping.name))
            }
            policies[entityMapping.name] = make()
        }
        return policies
    }

    private static func removeStoreFiles(at url: URL) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }
}

extension PersistentStore {
    /// Makes every object of `sourceStore` (at `source`, a version of `model`) again in a new
    /// SQLite store at `url`, at `destination`, through `mapping`: the first half of a mapping
    /// model's migration, whose new store an engine then puts in the old one's place.
    package static func makeStore(
        byMapping mapping: MappingModel, from sourceStore: PersistentStore, source: Model, to destination: Model, at url: URL,
        model: ManagedObjectModel, options: MigrationOptions
    ) throws(StoreError) {
        try MappingMigration.makeStore(mapping, from: sourceStore, source: source, to: destination, at: url, model: model, options: options)
    }
}
