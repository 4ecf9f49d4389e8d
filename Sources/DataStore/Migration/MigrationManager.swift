import DataModel
import PredicateLanguage

/// What runs a mapping model's migration, as policies see it: Core Data's `NSMigrationManager`. It
/// holds a context on the store at the source version and one on the new store at the destination
/// version, and remembers which destination objects each entity mapping made from which source
/// object, so that relationships can be linked once every object exists.
public final class MigrationManager {
    public let mappingModel: MappingModel
    public let sourceModel: Model
    public let destinationModel: Model
    /// The store as it is, read only.
    public let sourceContext: ObjectContext
    /// The store being made; saved once every stage has run.
    public let destinationContext: ObjectContext
    let policies: [String: any MigrationPolicy]
    /// By entity mapping: the destination objects made, in order, each with its source object.
    private var made: [String: [(source: ManagedObject, destination: ManagedObject)]] = [:]
    /// By entity mapping and source object: the destination objects made from it.
    private var destinationsBySource: [String: [ObjectID: [ManagedObject]]] = [:]
    /// By source object, across entity mappings.
    private var allDestinations: [ObjectID: [ManagedObject]] = [:]
    /// The mapping model's value expressions, by their text.
    private var parsedExpressions: [String: PredicateExpression] = [:]

    init(
        mappingModel: MappingModel, sourceModel: Model, destinationModel: Model, sourceContext: ObjectContext,
        destinationContext: ObjectContext, policies: [String: any MigrationPolicy]
    ) {
        self.mappingModel = mappingModel
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        self.sourceContext = sourceContext
        self.destinationContext = destinationContext
        self.policies = policies
    }

    /// Records that `mapping` made `destination` from `source`: Core Data's
    /// `associate(sourceInstance:withDestinationInstance:for:)`.
    public func associate(source: ManagedObject, destination: ManagedObject, mapping: EntityMapping) {
        made[mapping.name, default: []].append((source, destination))
        destinationsBySource[mapping.name, default: [:]][source.objectID, default: []].append(destination)
        allDestinations[source.objectID, default: []].append(destination)
    }

    /// The objects the entity mapping `name` made from `sources`, in their order.
    public func destinationInstances(forEntityMappingNamed name: String, sourceInstances sources: [ManagedObject]) -> [ManagedObject] {
        sources.flatMap { destinationsBySource[name]?[$0.objectID] ?? [] }
    }

    /// The source objects the entity mapping `name` made `destinations` from.
    public func sourceInstances(forEntityMappingNamed name: String, destinationInstances destinations: [ManagedObject]) -> [ManagedObject] {
        let wanted = Set(destinations.map(ObjectIdentifier.init))
        return (made[name] ?? []).filter { wanted.contains(ObjectIdentifier($0.destination)) }.map(\.source)
    }

    /// The objects every entity mapping made from `sources`: where the links of a relationship go
    /// when its mapping names no entity mapping (Core Data's
    /// `destinationInstancesForSourceRelationshipNamed:sourceInstances:`).
    public func destinationInstances(ofSourceInstances sources: [ManagedObject]) -> [ManagedObject] {
        sources.flatMap { allDestinations[$0.objectID] ?? [] }
    }

    /// The destination objects `mapping` made, in order.
    func destinations(madeBy mapping: EntityMapping) -> [ManagedObject] {
        (made[mapping.name] ?? []).map(\.destination)
    }

    // MARK: What Core Data does by default

    /// A new object of the mapping's destination entity, with each attribute the mapping maps set
    /// from its value expression (the source's attribute of the same name when it has none),
    /// associated with `source`; what Core Data's `createDestinationInstances` does.
    @discardableResult
    public func createDestinationInstanceByDefault(for source: ManagedObject, in mapping: EntityMapping) throws -> ManagedObject {
        guard let entity = mapping.destinationEntityName else {
            throw MigrationError.custom(message: "\(mapping.name) has no destination entity to make objects of")
        }
        let destination = try destinationContext.insertObject(entityName: entity)
        for property in mapping.attributeMappings {
            let value: Any?
            if let expression = property.valueExpression {
                value = try evaluate(expression, source: source, destination: destination, mapping: mapping, property: property.name)
            } else if source.entity.attribute(named: property.name) != nil {
                value = source.value(forKey: property.name)
            } else {
                continue
            }
            try destination.setValue(value, forKey: property.name)
        }
        associate(source: source, destination: destination, mapping: mapping)
        return destination
    }

    /// Links each relationship the mapping maps: through its value expression, else to the
    /// objects made from what the source's relationship of the same name links to.
    public func createRelationshipsByDefault(for destination: ManagedObject, in mapping: EntityMapping) throws {
        guard let source = sourceInstances(forEntityMappingNamed: mapping.name, destinationInstances: [destination]).first else { return }
        for property in mapping.relationshipMappings {
            guard let relationship = destination.entity.relationship(named: property.name) else { continue }
            var targets: [ManagedObject]
            if let expression = property.valueExpression {
                targets = Self.objects(in: try evaluate(expression, source: source, destination: destination, mapping: mapping, property: property.name))
            } else if source.entity.relationship(named: property.name) != nil {
                let linked = Self.objects(in: source.value(forKey: property.name))
                targets = property.sourceMappingName.map { destinationInstances(forEntityMappingNamed: $0, sourceInstances: linked) }
                    ?? destinationInstances(ofSourceInstances: linked)
            } else {
                continue
            }
            targets = targets.filter { destinationModel.entity(named: $0.entity.name).map { destinationModel.entity($0, isKindOf: relationship.destinationEntityName) } ?? false }
            try destination.setValue(relationship.isToOne ? targets.first : targets, forKey: property.name)
        }
    }

    // MARK: Value expressions

    /// The value of a mapping's value expression, with `$source`, `$destination`, `$manager` and
    /// `$entityPolicy` bound as Core Data binds them.
    func evaluate(_ text: String, source: ManagedObject?, destination: ManagedObject?, mapping: EntityMapping, property: String) throws -> Any? {
        // Parsed once per expression, not once per object.
        let expression: PredicateExpression
        if let parsed = parsedExpressions[text] {
            expression = parsed
        } else {
            do {
                expression = try PredicateExpression(format: text)
            } catch {
                throw MigrationError.custom(message: "\(mapping.name).\(property): the value expression '\(text)' does not read: \(error)")
            }
            parsedExpressions[text] = expression
        }
        return try value(of: expression, source: source, destination: destination, mapping: mapping)
    }

    private func value(of expression: PredicateExpression, source: ManagedObject?, destination: ManagedObject?, mapping: EntityMapping) throws -> Any? {
        func value(_ expression: PredicateExpression) throws -> Any? {
            try self.value(of: expression, source: source, destination: destination, mapping: mapping)
        }
        switch expression {
        case .constant(.attribute(let constant)):
            return constant.anyValue
        case .variable("source"):
            return source
        case .variable("destination"):
            return destination
        case .collection(let elements):
            return try elements.map(value)
        case .keyPath(let base, let components):
            var current = try value(base)
            for key in components {
                switch current {
                case let object as ManagedObject: current = object.value(forKey: key)
                case nil: return nil
                default:
                    let objects = Self.objects(in: current)
                    current = objects.map { $0.value(forKey: key) }
                }
            }
            return current
        case .method(.variable("entityPolicy"), let selector, let arguments):
            let policy = policies[mapping.name] ?? DefaultMigrationPolicy()
            return try policy.value(ofFunction: selector, arguments: try arguments.map(value), manager: self)
        case .method(.variable("manager"), "destinationInstancesForEntityMappingNamed:sourceInstances:", let arguments) where arguments.count == 2:
            guard let name = try value(arguments[0]) as? String else { throw MigrationError.custom(message: "\(mapping.name): an entity mapping's name must be a string") }
            return destinationInstances(forEntityMappingNamed: name, sourceInstances: Self.objects(in: try value(arguments[1])))
        case .method(.variable("manager"), "destinationInstancesForSourceRelationshipNamed:sourceInstances:", let arguments) where arguments.count == 2:
            return destinationInstances(ofSourceInstances: Self.objects(in: try value(arguments[1])))
        default:
            throw MigrationError.custom(message: "\(mapping.name): '\(expression)' is not a value a migration computes")
        }
    }

    /// The objects a to-one or to-many value holds.
    static func objects(in value: Any?) -> [ManagedObject] {
        switch value {
        case let object as ManagedObject: [object]
        case let objects as [ManagedObject]: objects
        case let objects as Set<ManagedObject>: objects.sorted { ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0) }
        case let values as [Any?]: values.flatMap(objects(in:))
        default: []
        }
    }
}
