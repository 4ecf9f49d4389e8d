import DataModel

extension MappingModel {
    /// The mapping model Xcode's *New File › Mapping Model* starts from: for each concrete entity
    /// of `destination` that comes from an entity of `source` (by renaming identifier, as
    /// ``ModelMapping`` matches them), an entity mapping `<Source>To<Destination>` that maps every
    /// stored attribute and relationship. A property of the same name takes the source's value by
    /// itself; a renamed one gets the expression that reads it (`$source.oldName`, or the objects
    /// made from those the old relationship links to); a new one is left without a value, for a
    /// policy or an expression to give. Entities new in `destination` get no objects, and objects
    /// of entities it no longer has go.
    ///
    /// `sourceModelPath` and `destinationModelPath` name the two versions (`Library.xcdatamodeld/Library 2.xcdatamodel`).
    public static func inferred(from source: Model, to destination: Model, sourceModelPath: String, destinationModelPath: String, path: String) -> MappingModel {
        let mapping = ModelMapping(from: source, to: destination)
        let location = SourceLocation(file: path)
        var entityMappings: [EntityMapping] = []
        for entity in destination.entities where !entity.isAbstract {
            guard let sourceName = mapping.sourceEntities[entity.name] else { continue }
            var entityMapping = EntityMapping(
                name: "\(sourceName)To\(entity.name)", sourceEntityName: sourceName, destinationEntityName: entity.name, location: location)
            for attribute in destination.allAttributes(of: entity) where attribute.isPersistent {
                let from = mapping.sourceProperty(of: attribute.name, in: entity.name)?.name
                let expression = from.flatMap { $0 == attribute.name ? nil : "$source.\($0)" }
                entityMapping.attributeMappings.append(PropertyMapping(name: attribute.name, valueExpression: expression, location: location))
            }
            for relationship in destination.allRelationships(of: entity) where !relationship.isTransient {
                var expression: String?
                if let from = mapping.sourceProperty(of: relationship.name, in: entity.name)?.name, from != relationship.name {
                    // The objects made from those the old relationship links to, whichever mappings made them.
                    expression = #"FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "\#(from)", $source.\#(from))"#
                }
                entityMapping.relationshipMappings.append(PropertyMapping(name: relationship.name, valueExpression: expression, location: location))
            }
            entityMapping.attributeMappings.sort { $0.name < $1.name }
            entityMapping.relationshipMappings.sort { $0.name < $1.name }
            entityMappings.append(entityMapping)
        }
        return MappingModel(
            path: path, sourceModelPath: sourceModelPath, destinationModelPath: destinationModelPath, sourceSnapshot: ModelSnapshot(source),
            destinationSnapshot: ModelSnapshot(destination), entityMappings: entityMappings, location: location)
    }
}
