import DataModel

/// What an entity mapping of a mapping model runs for each object: Core Data's
/// `NSEntityMigrationPolicy`, whose subclasses an app ports to a type of this protocol and names in
/// ``MigrationOptions/migrationPolicies`` under the class name its mapping model gives.
///
/// Each method does by default what Core Data's does; an implementation that replaces one can call
/// the default through the manager (``MigrationManager/createDestinationInstanceByDefault(for:in:)``)
/// and then adjust what it made, as an override calls `super`.
///
///     struct BookPolicy: MigrationPolicy {
///         func createDestinationInstances(for source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
///             let book = try manager.createDestinationInstanceByDefault(for: source, in: mapping)
///             try book.setValue((source.value(forKey: "title") as? String)?.uppercased(), forKey: "title")
///         }
///
///         func value(ofFunction selector: String, arguments: [Any?], manager: MigrationManager) throws -> Any? {
///             guard selector == "stringIdForIntId:", let id = arguments.first as? Int64 else { throw MigrationError.custom(message: selector) }
///             return String(id)
///         }
///     }
public protocol MigrationPolicy: Sendable {
    /// The first stage: makes the destination objects of `source` and associates them with it.
    func createDestinationInstances(for source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws

    /// The second stage, once every destination object exists: links `destination` (made from a
    /// source object by `mapping`) to the objects its relationships lead to.
    func createRelationships(for destination: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws

    /// The third stage, before the destination store is saved (which validates every object).
    func performCustomValidation(for mapping: EntityMapping, manager: MigrationManager) throws

    /// What a value expression's `FUNCTION($entityPolicy, "selector", arguments…)` gives: the
    /// policy's Objective-C methods, by their selectors.
    func value(ofFunction selector: String, arguments: [Any?], manager: MigrationManager) throws -> Any?
}

extension MigrationPolicy {
    public func createDestinationInstances(for source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        _ = try manager.createDestinationInstanceByDefault(for: source, in: mapping)
    }

    public func createRelationships(for destination: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        try manager.createRelationshipsByDefault(for: destination, in: mapping)
    }

    public func performCustomValidation(for mapping: EntityMapping, manager: MigrationManager) throws {}

    public func value(ofFunction selector: String, arguments: [Any?], manager: MigrationManager) throws -> Any? {
        throw MigrationError.custom(message: "\(type(of: self)) has no method \(selector)")
    }
}

/// The policy of entity mappings that name none: Core Data's own behaviour.
struct DefaultMigrationPolicy: MigrationPolicy {}
