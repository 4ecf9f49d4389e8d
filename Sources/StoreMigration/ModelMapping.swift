import DataModel

/// Which entity and property of one model version each of another's comes from, matched as Core
/// Data matches them: by renaming identifier (`elementID`), which defaults to the name.
///
/// An entity of the destination maps from the source entity with the same identifier; a property of
/// a mapped entity (its own or inherited) maps from the source entity's property of the same kind and
/// identifier. Everything else is new, and every source entity or property no one maps from is gone.
public struct ModelMapping: Sendable {
    public let source: Model
    public let destination: Model
    /// Source entity name by destination entity name.
    public let sourceEntities: [String: String]
    /// Per destination entity, the source property name by destination property name.
    private let sourceProperties: [String: [String: String]]

    public init(from source: Model, to destination: Model) {
        self.source = source
        self.destination = destination
        var byIdentifier: [String: String] = [:]
        for entity in source.entities where byIdentifier[Self.identifier(of: entity)] == nil {
            byIdentifier[Self.identifier(of: entity)] = entity.name
        }
        var entities: [String: String] = [:]
        var properties: [String: [String: String]] = [:]
        for entity in destination.entities {
            guard let sourceName = byIdentifier[Self.identifier(of: entity)], let sourceEntity = source.entity(named: sourceName)
            else { continue }
            entities[entity.name] = sourceName
            var candidates: [String: String] = [:]
            for property in source.allProperties(of: sourceEntity) where candidates[Self.key(of: property)] == nil {
                candidates[Self.key(of: property)] = property.name
            }
            var mapped: [String: String] = [:]
            for property in destination.allProperties(of: entity) {
                if let match = candidates[Self.key(of: property)] { mapped[property.name] = match }
            }
            properties[entity.name] = mapped
        }
        sourceEntities = entities
        sourceProperties = properties
    }

    /// The source entity the destination entity `name` comes from.
    public func sourceEntity(of name: String) -> Entity? {
        sourceEntities[name].flatMap(source.entity(named:))
    }

    /// The destination entities that come from the source entity `name` (one, except in a broken model).
    public func destinationEntities(of name: String) -> [String] {
        destination.entities.map(\.name).filter { sourceEntities[$0] == name }
    }

    /// The source property the property `property` of the destination entity `entity` comes from.
    public func sourceProperty(of property: String, in entity: String) -> Property? {
        guard let sourceName = sourceProperties[entity]?[property], let sourceEntity = sourceEntity(of: entity) else { return nil }
        return source.property(named: sourceName, in: sourceEntity)
    }

    /// Whether some property of the destination entity `entity` comes from the source property `name`.
    public func isMapped(sourceProperty name: String, to entity: String) -> Bool {
        destinationName(ofSourceProperty: name, in: entity) != nil
    }

    /// The name of the property of the destination entity `entity` that comes from the source
    /// property `name`.
    public func destinationName(ofSourceProperty name: String, in entity: String) -> String? {
        sourceProperties[entity]?.first { $0.value == name }?.key
    }

    /// The renaming identifier Core Data matches entities by.
    static func identifier(of entity: Entity) -> String {
        entity.elementID ?? entity.name
    }

    /// Kind and renaming identifier: properties match only within their kind.
    private static func key(of property: Property) -> String {
        switch property {
        case .attribute(let attribute): "a:" + (attribute.elementID ?? attribute.renamingIdentifier ?? attribute.name)
        case .relationship(let relationship): "r:" + (relationship.elementID ?? relationship.renamingIdentifier ?? relationship.name)
        case .fetchedProperty(let fetched): "f:" + fetched.name
        }
    }
}
