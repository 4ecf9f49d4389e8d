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
        let policies = try policies(of: mapping, in: options)
        let made = url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".mapping")
        removeStoreFiles(at: made)
        defer { removeStoreFiles(at: made) }
        do {
            let sourceStore = try PersistentStore.readOnly(url: url, model: ManagedObjectModel(model: source))
            let destinationStore = try PersistentStore(
                url: made, model: destination == model.model ? model : ManagedObjectModel(model: destination), migration: .disabled)
            let manager = MigrationManager(
                mappingModel: mapping, sourceModel: source, destinationModel: destination, sourceContext: sourceStore.newContext(),
                destinationContext: destinationStore.newContext(), policies: policies)
            try run(manager, policies: policies)
            do {
                try manager.destinationContext.save()
            } catch {
                throw MigrationError.custom(message: "the migrated objects do not save: \(error)")
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw PersistentStore.typed(error) { .custom(message: $0) }
        }
        // The stores above are closed: the new file replaces the store's content in one transaction.
        try PersistentStore.catching { try DatabaseQueue(path: made.path).backup(to: database) }
    }

    /// Core Data's three stages, each over every entity mapping in order.
    private static func run(_ manager: MigrationManager, policies: [String: any MigrationPolicy]) throws {
        let mappings = manager.mappingModel.entityMappings
        func policy(_ mapping: EntityMapping) -> any MigrationPolicy { policies[mapping.name] ?? DefaultMigrationPolicy() }
        for mapping in mappings {
            guard let entity = mapping.sourceEntityName, mapping.destinationEntityName != nil else { continue }
            var request = FetchRequest<ManagedObject>(entityName: entity)
            request.includesSubentities = false
            for source in try manager.sourceContext.fetch(request) {
                try policy(mapping).createDestinationInstances(for: source, in: mapping, manager: manager)
            }
        }
        for mapping in mappings {
            for destination in manager.destinations(madeBy: mapping) {
                try policy(mapping).createRelationships(for: destination, in: mapping, manager: manager)
            }
        }
        for mapping in mappings { try policy(mapping).performCustomValidation(for: mapping, manager: manager) }
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
