import Foundation

/// A mapping model (`.xcmappingmodel`): how a store of one model version becomes a store of
/// another, entity mapping by entity mapping, as Core Data's `NSMappingModel` runs it.
public struct MappingModel: Sendable, Equatable {
    /// The bundle, as locations name it.
    public var path: String
    /// Where the two model versions were when the mapping was saved: paths relative to the Xcode
    /// project of the time, which need not exist any more.
    public var sourceModelPath: String?
    public var destinationModelPath: String?
    /// The entities and properties of the two versions as the mapping model's editor last saw
    /// them: what tells which versions of a bundle the mapping connects.
    public var sourceSnapshot: ModelSnapshot?
    public var destinationSnapshot: ModelSnapshot?
    /// The entity mappings, in the order they run.
    public var entityMappings: [EntityMapping]
    public var location: SourceLocation

    public init(
        path: String, sourceModelPath: String?, destinationModelPath: String?, sourceSnapshot: ModelSnapshot? = nil,
        destinationSnapshot: ModelSnapshot? = nil, entityMappings: [EntityMapping], location: SourceLocation
    ) {
        self.path = path
        self.sourceModelPath = sourceModelPath
        self.destinationModelPath = destinationModelPath
        self.sourceSnapshot = sourceSnapshot
        self.destinationSnapshot = destinationSnapshot
        self.entityMappings = entityMappings
        self.location = location
    }

    /// The positions in `versions` of the source and destination versions the mapping connects:
    /// the versions whose entities and properties are those of the mapping's snapshots (the
    /// closest, when a snapshot is stale), else the versions its paths name. `nil` when neither
    /// tells.
    public func connectedVersions(among versions: [Model]) -> (source: Int, destination: Int)? {
        func closest(_ snapshot: ModelSnapshot?, _ path: String?) -> Int? {
            if let snapshot {
                let distances = versions.map { snapshot.distance(to: ModelSnapshot($0)) }
                if let best = distances.min(), best <= snapshot.size / 10, distances.filter({ $0 == best }).count == 1 {
                    return distances.firstIndex(of: best)
                }
            }
            let name = path.map { ($0 as NSString).lastPathComponent.replacingOccurrences(of: ".xcdatamodel", with: "") }
            return versions.firstIndex { $0.versionName == name }
        }
        guard let source = closest(sourceSnapshot, sourceModelPath), let destination = closest(destinationSnapshot, destinationModelPath),
              source != destination
        else { return nil }
        return (source, destination)
    }

    /// The entity mapping named `name`.
    public func entityMapping(named name: String) -> EntityMapping? {
        entityMappings.first { $0.name == name }
    }

    /// The mapping model with every location `.generated`, as generated code compiles it: equal to
    /// the same mapping read from another file or line.
    public var withoutLocations: MappingModel {
        var plain = self
        plain.location = .generated
        for index in plain.entityMappings.indices {
            plain.entityMappings[index].location = .generated
            for property in plain.entityMappings[index].attributeMappings.indices { plain.entityMappings[index].attributeMappings[property].location = .generated }
            for property in plain.entityMappings[index].relationshipMappings.indices {
                plain.entityMappings[index].relationshipMappings[property].location = .generated
            }
        }
        return plain
    }
}

/// How the objects of one source entity become objects of one destination entity: Core Data's
/// `NSEntityMapping`.
public struct EntityMapping: Sendable, Equatable {
    /// What the mapping does, as Core Data's `NSEntityMappingType` names it.
    public enum Kind: String, Sendable, Equatable {
        /// New objects of an entity the source does not have (`NSAddEntityMappingType`).
        case add
        /// The source's objects go (`NSRemoveEntityMappingType`).
        case remove
        /// Each source object becomes a destination object (`NSTransformEntityMappingType`,
        /// `NSCopyEntityMappingType` when nothing changes, `NSCustomEntityMappingType` with a policy).
        case transform
    }

    /// The name relationship mappings and policies look the mapping up by: the one the mapping
    /// model gives, else `<Source>To<Destination>` as Xcode names it.
    public var name: String
    public var sourceEntityName: String?
    public var destinationEntityName: String?
    /// The class of the migration policy, module-qualified (`Amperfy.MigrationPolicyV4toV5`) or
    /// bare, as the model names it.
    public var migrationPolicyClassName: String?
    public var userInfo: [String: String]
    /// Which source objects the mapping takes (Core Data's `sourceExpression`'s predicate), when
    /// it does not take every one.
    public var filterPredicate: String?
    public var attributeMappings: [PropertyMapping]
    public var relationshipMappings: [PropertyMapping]
    public var location: SourceLocation

    public init(
        name: String, sourceEntityName: String?, destinationEntityName: String?, migrationPolicyClassName: String? = nil,
        userInfo: [String: String] = [:], filterPredicate: String? = nil, attributeMappings: [PropertyMapping] = [],
        relationshipMappings: [PropertyMapping] = [], location: SourceLocation
    ) {
        self.name = name
        self.sourceEntityName = sourceEntityName
        self.destinationEntityName = destinationEntityName
        self.migrationPolicyClassName = migrationPolicyClassName
        self.userInfo = userInfo
        self.filterPredicate = filterPredicate
        self.attributeMappings = attributeMappings
        self.relationshipMappings = relationshipMappings
        self.location = location
    }

    public var kind: Kind {
        if sourceEntityName == nil { return .add }
        if destinationEntityName == nil { return .remove }
        return .transform
    }
}

/// How one destination attribute or relationship gets its value: Core Data's `NSPropertyMapping`.
public struct PropertyMapping: Sendable, Equatable {
    /// The destination property.
    public var name: String
    /// The value expression in the predicate language's syntax (`$source.title`,
    /// `FUNCTION($entityPolicy, "migrateIconURL")`), when the mapping model stores one. Without,
    /// the property takes what Xcode generates: the source's property of the same name.
    public var valueExpression: String?
    /// For a relationship: the entity mapping whose destination objects it links to, when the
    /// mapping model names one.
    public var sourceMappingName: String?
    public var location: SourceLocation

    public init(name: String, valueExpression: String? = nil, sourceMappingName: String? = nil, location: SourceLocation) {
        self.name = name
        self.valueExpression = valueExpression
        self.sourceMappingName = sourceMappingName
        self.location = location
    }
}

/// A model's entity names, each with its own property names: how a mapping model remembers the
/// versions it connects.
public struct ModelSnapshot: Sendable, Equatable {
    public var properties: [String: Set<String>]

    public init(properties: [String: Set<String>]) {
        self.properties = properties
    }

    /// The snapshot of `model`.
    public init(_ model: Model) {
        properties = Dictionary(
            model.entities.map { entity in (entity.name, Set(entity.attributes.map(\.name) + entity.relationships.map(\.name))) },
            uniquingKeysWith: { $0.union($1) })
    }

    /// The number of entities and properties.
    public var size: Int {
        properties.count + properties.values.map(\.count).reduce(0, +)
    }

    /// The number of entities and properties one snapshot has and the other has not.
    public func distance(to other: ModelSnapshot) -> Int {
        Set(properties.keys).symmetricDifference(other.properties.keys).count
            + properties.map { entity, names in other.properties[entity].map { names.symmetricDifference($0).count } ?? 0 }.reduce(0, +)
    }
}
