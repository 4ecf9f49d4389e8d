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
    /// By entity mapping: which destination objects it made from which source objects.
    private var associations: [String: MigrationAssociations] = [:]
    /// The mapping model's value expressions, by their text.
    private var parsedExpressions: [String: PredicateExpression] = [:]
    /// By entity mapping: its attribute mappings resolved against its entities.
    private var attributePlans: [String: AttributeMappingPlan] = [:]
    private var lastPlan: (mapping: String, plan: AttributeMappingPlan)?
    /// Where the values of the objects made are written, many objects to a buffer.
    private var valueWriter = AttributeValues.Writer(valuesPerBuffer: 4096)

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
        associations[mapping.name, default: MigrationAssociations()].append(source: source, destination: destination)
    }

    /// The objects the entity mapping `name` made from `sources`, in their order.
    public func destinationInstances(forEntityMappingNamed name: String, sourceInstances sources: [ManagedObject]) -> [ManagedObject] {
        guard associations[name] != nil else { return [] }
        return sources.flatMap { source -> [ManagedObject] in
            guard let key = MigrationAssociations.key(source.objectID) else { return [] }
            let (keys, objects) = associations[name]!.destinations(of: key)
            return keys.map { Self.object(withKey: $0, in: destinationContext) } + objects
        }
    }

    /// The source objects the entity mapping `name` made `destinations` from.
    public func sourceInstances(forEntityMappingNamed name: String, destinationInstances destinations: [ManagedObject]) -> [ManagedObject] {
        guard associations[name] != nil else { return [] }
        return destinations.flatMap { destination in
            associations[name]!.sources(of: destination).map { Self.object(withKey: $0, in: sourceContext) }
        }
    }

    /// The objects every entity mapping made from `sources`: where the links of a relationship go
    /// when its mapping names no entity mapping (Core Data's
    /// `destinationInstancesForSourceRelationshipNamed:sourceInstances:`).
    public func destinationInstances(ofSourceInstances sources: [ManagedObject]) -> [ManagedObject] {
        // Source by source, as Core Data gives them: an ordered relationship keeps its order.
        sources.flatMap { source in
            mappingModel.entityMappings.flatMap { destinationInstances(forEntityMappingNamed: $0.name, sourceInstances: [source]) }
        }
    }

    // MARK: Batches

    /// Saves the objects made or linked so far, without validating them: Core Data validates
    /// once every stage has run. What the save keys is then held by key only, and objects nobody
    /// holds go away.
    func saveBatch() throws {
        guard destinationContext.hasChanges else { return }
        do {
            try destinationContext.save()
        } catch {
            throw MigrationError.custom(message: "the migrated objects do not save: \(error)")
        }
        // Over a copy of the names: iterating the dictionary while changing its values would copy them.
        for name in Array(associations.keys) { associations[name]!.keepPending() }
        destinationContext.deferredValidation?.keepPending()
        // Nothing holds the temporary IDs of the saved objects: the table from them to their keys can go.
        destinationContext.forgetSavedTemporaryIDs()
    }

    /// Makes room for the pairs of `count` more source objects of `mapping`, so that the pairs
    /// of a million objects take what they need and no more.
    func reserve(_ count: Int, for mapping: EntityMapping) {
        associations[mapping.name, default: MigrationAssociations()].reserve(count)
    }

    /// The saved pairs `mapping` made, as keys of the source and destination objects.
    func pairs(madeBy mapping: EntityMapping) -> (sources: [Int64], destinations: [Int64]) {
        let made = associations[mapping.name] ?? MigrationAssociations()
        return (made.sourceKeys, made.destinationKeys)
    }

    /// The objects of `keys`, read from the store of `context` a query per entity, in the order
    /// of `keys`.
    static func objects(withKeys keys: some Collection<Int64>, in context: ObjectContext) throws -> [ManagedObject] {
        var fetched: [ManagedObject] = []
        for (entityNumber, entityKeys) in Dictionary(grouping: keys, by: MigrationAssociations.entityNumber(of:)) {
            let ids = entityKeys.map { context.store.objectID(key: .permanent(MigrationAssociations.primaryKey(of: $0)), entityNumber: entityNumber) }
            var request = FetchRequest<ManagedObject>(entityName: context.store.idScope(entityNumber: entityNumber).entityName)
            request.includesSubentities = false
            request.predicate = try ObjectPredicate(format: "SELF IN %@", ids)
            fetched += try context.fetch(request)
        }
        // The fetched objects are registered, and held by `fetched` while they are looked up.
        return withExtendedLifetime(fetched) { keys.map { key in MigrationManager.object(withKey: key, in: context) } }
    }

    private static func object(withKey key: Int64, in context: ObjectContext) -> ManagedObject {
        context.object(with: context.store.objectID(key: .permanent(MigrationAssociations.primaryKey(of: key)), entityNumber: MigrationAssociations.entityNumber(of: key)))
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
        let plan = try attributePlan(of: mapping, source: source.entity, destinationEntity: entity)
        let entityDescription = plan.destination
        let destination: ManagedObject
        if plan.makesValuesAtOnce {
            // Made with its values, as a fetched object is: one write per object, not one per value.
            let values: AttributeValues
            switch plan.values(from: source, into: &valueWriter) {
            case .success(let made): values = made
            case .failure(let failure): throw ContextError.invalidValue(entity: entity, key: failure.step.property, value: "\(failure.value)")
            }
            destination = entityDescription.objectClass.init(destinationContext.creationForInsert(of: entityDescription))
            destinationContext.registerInserted(destination, values: values, relationships: entityDescription.rowLayout.emptyRelationships)
        } else {
            destination = destinationContext.insertObject(of: entityDescription)
            for step in plan.steps {
                guard let value = plan.value(of: step, from: source) else {
                    // An expression, or a value the attribute cannot hold: the general way says which.
                    let value = try evaluate(step.property, in: mapping, source: source, destination: destination)
                    try destination.setValue(value, forKey: step.property)
                    continue
                }
                destination.setAttributeValue(value, atSlot: step.destinationSlot)
            }
        }
        associate(source: source, destination: destination, mapping: mapping)
        return destination
    }

    /// Links each relationship the mapping maps: through its value expression, else to the
    /// objects made from what the source's relationship of the same name links to.
    public func createRelationshipsByDefault(for destination: ManagedObject, in mapping: EntityMapping) throws {
        guard !mapping.relationshipMappings.isEmpty,
              let source = sourceInstances(forEntityMappingNamed: mapping.name, destinationInstances: [destination]).first
        else { return }
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
        try value(of: parsed(text, mapping: mapping, property: property), source: source, destination: destination, mapping: mapping)
    }

    /// The expression `text`, parsed once per mapping model, not once per object.
    private func parsed(_ text: String, mapping: EntityMapping, property: String) throws -> PredicateExpression {
        if let expression = parsedExpressions[text] { return expression }
        do {
            let expression = try PredicateExpression(format: text)
            parsedExpressions[text] = expression
            return expression
        } catch {
            throw MigrationError.custom(message: "\(mapping.name).\(property): the value expression '\(text)' does not read: \(error)")
        }
    }

    /// The value of `property`'s mapping in `mapping` for an object made from `source`: its
    /// expression's, else the source's attribute of that name.
    private func evaluate(_ property: String, in mapping: EntityMapping, source: ManagedObject, destination: ManagedObject) throws -> Any? {
        guard let text = mapping.attributeMappings.first(where: { $0.name == property })?.valueExpression else {
            return source.value(forKey: property)
        }
        return try evaluate(text, source: source, destination: destination, mapping: mapping, property: property)
    }

    /// The attribute plan of `mapping` for objects of `source` made into objects of `destinationEntity`.
    private func attributePlan(of mapping: EntityMapping, source: EntityDescription, destinationEntity: String) throws -> AttributeMappingPlan {
        // Objects come mapping by mapping: the plan used last is nearly always the one.
        if let (name, plan) = lastPlan, name == mapping.name, plan.source === source { return plan }
        if let plan = attributePlans[mapping.name], plan.source === source {
            lastPlan = (mapping.name, plan)
            return plan
        }
        guard let destination = destinationContext.store.entity(named: destinationEntity) else { throw ContextError.unknownEntity(destinationEntity) }
        let plan = try AttributeMappingPlan(mapping, source: source, destination: destination) { text in
            try parsed(text, mapping: mapping, property: mapping.attributeMappings.first { $0.valueExpression == text }?.name ?? "")
        }
        attributePlans[mapping.name] = plan
        lastPlan = (mapping.name, plan)
        return plan
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
