import DataModel
import StoreSchema

/// The changes between two versions of a model, per entity and property, each classified as a
/// lightweight migration would: inferred, inferred if the data allows, or not inferred.
///
///     let difference = ModelDifference(from: version1, to: version2)
///     for change in difference.blockingChanges { print("\(change.location): error: \(change)") }
///
/// Entities whose version hashes are equal and whose names did not change are unchanged and not
/// examined further; the rules follow Apple's "Lightweight Migration" documentation.
public struct ModelDifference: Sendable {
    public let mapping: ModelMapping
    /// Every change, in the destination's entity order (removed entities last).
    public let changes: [ModelChange]

    public init(from source: Model, to destination: Model) {
        mapping = ModelMapping(from: source, to: destination)
        var finder = ChangeFinder(mapping: mapping)
        changes = finder.changes()
    }

    /// The changes no lightweight migration can make.
    public var blockingChanges: [ModelChange] {
        changes.filter(\.inference.isBlocking)
    }

    /// Whether a lightweight migration can carry a store from the source to the destination
    /// (data permitting, for the changes that depend on it).
    public var isInferable: Bool {
        blockingChanges.isEmpty
    }
}

/// Walks the mapped entities and properties, collecting changes.
private struct ChangeFinder {
    let mapping: ModelMapping
    var found: [ModelChange] = []
    private let sourceHashes: ModelVersionHashes
    private let destinationHashes: ModelVersionHashes

    init(mapping: ModelMapping) {
        self.mapping = mapping
        sourceHashes = ModelVersionHashes(model: mapping.source)
        destinationHashes = ModelVersionHashes(model: mapping.destination)
    }

    var source: Model { mapping.source }
    var destination: Model { mapping.destination }

    mutating func changes() -> [ModelChange] {
        for entity in destination.entities {
            guard let old = mapping.sourceEntity(of: entity.name) else {
                add(.entityAdded, entity.name, nil, "new entity", .inferred, entity.location)
                continue
            }
            let unchanged = old.name == entity.name
                && sourceHashes.entityHashes[old.name] == destinationHashes.entityHashes[entity.name]
            if !unchanged { compare(old, entity) }
        }
        for entity in source.entities where mapping.destinationEntities(of: entity.name).isEmpty {
            add(.entityRemoved, entity.name, nil, "entity removed; its objects are deleted", .inferred, entity.location)
        }
        findMergedHierarchies()
        return found
    }

    private mutating func add(
        _ kind: ModelChange.Kind, _ entity: String, _ property: String?, _ detail: String,
        _ inference: ModelChange.Inference, _ location: SourceLocation
    ) {
        found.append(ModelChange(kind: kind, entity: entity, property: property, detail: detail, inference: inference, location: location))
    }

    // MARK: Entities

    private mutating func compare(_ old: Entity, _ new: Entity) {
        let name = new.name
        if old.name != new.name {
            add(.entityRenamed, name, nil, "renamed from \(old.name)", .inferred, new.location)
        }
        if mappedName(ofSourceEntity: old.parentName) != new.parentName {
            let from = old.parentName.map { "subentity of \($0)" } ?? "root entity"
            let to = new.parentName.map { "subentity of \($0)" } ?? "root entity"
            add(.parentChanged, name, nil, "\(from) → \(to)", .inferred, new.location)
        }
        if !old.isAbstract && new.isAbstract {
            add(.becameAbstract, name, nil, "became abstract", .inferredIfData("the store has no \(name) objects of the entity itself"), new.location)
        } else if old.isAbstract && !new.isAbstract {
            add(.becameConcrete, name, nil, "no longer abstract", .inferred, new.location)
        }
        for attribute in new.attributes { compare(attribute, in: new) }
        for relationship in new.relationships { compare(relationship, in: new) }
        for property in old.properties where !(property.isFetched) && !mapping.isMapped(sourceProperty: property.name, to: name) {
            switch property {
            case .attribute(let attribute) where attribute.isPersistent:
                add(.attributeRemoved, name, attribute.name, "attribute removed; its values are dropped", .inferred, attribute.location)
            case .relationship(let relationship) where relationship.isPersistent:
                add(.relationshipRemoved, name, relationship.name, "relationship removed", .inferred, relationship.location)
            default: break
            }
        }
        if indexSignature(of: old, mappedTo: name) != indexSignature(of: new, mappedTo: nil) {
            add(.indexesChanged, name, nil, "indexes changed", .inferred, new.location)
        }
        if constraintSignature(of: old, mappedTo: name) != constraintSignature(of: new, mappedTo: nil) {
            add(.constraintsChanged, name, nil, "uniqueness constraints changed",
                .inferredIfData("the values they cover are unique among the store's objects"), new.location)
        }
    }

    /// The destination name of the source entity `name`.
    private func mappedName(ofSourceEntity name: String?) -> String? {
        name.flatMap { mapping.destinationEntities(of: $0).first }
    }

    /// Apple: "you cannot merge entity hierarchies; if two existing entities do not share a common
    /// parent in the source, they cannot share a common parent in the destination."
    private mutating func findMergedHierarchies() {
        var sourceRootsByRoot: [String: Set<String>] = [:]
        for entity in destination.entities {
            guard let old = mapping.sourceEntity(of: entity.name) else { continue }
            sourceRootsByRoot[destination.rootEntity(of: entity).name, default: []].insert(source.rootEntity(of: old).name)
        }
        for entity in destination.entities where entity.parentName == nil {
            guard let roots = sourceRootsByRoot[entity.name], roots.count > 1 else { continue }
            add(.hierarchiesMerged, entity.name, nil,
                "the hierarchy joins entities of separate source hierarchies (\(roots.sorted().joined(separator: ", ")))",
                .notInferred("entities that did not share a root entity cannot share one after a lightweight migration; "
                    + "migrate in a custom stage"), entity.location)
        }
    }

    // MARK: Attributes

    private mutating func compare(_ attribute: Attribute, in entity: Entity) {
        let name = entity.name
        guard case .attribute(let old)? = mapping.sourceProperty(of: attribute.name, in: name) else {
            if attribute.isPersistent {
                add(.attributeAdded, name, attribute.name, "new attribute" + fillDescription(attribute),
                    valueInference(attribute, entity: name), attribute.location)
            }
            return
        }
        if old.name != attribute.name, attribute.isPersistent {
            add(.attributeRenamed, name, attribute.name, "renamed from \(old.name)", .inferred, attribute.location)
        }
        switch (old.isPersistent, attribute.isPersistent) {
        case (false, true):
            add(.attributeBecameStored, name, attribute.name, "no longer transient" + fillDescription(attribute),
                valueInference(attribute, entity: name), attribute.location)
            return
        case (true, false):
            add(.attributeBecameTransient, name, attribute.name, "became transient; its stored values are dropped", .inferred, attribute.location)
            return
        case (false, false):
            return
        case (true, true):
            break
        }
        if old.type != attribute.type || old.compositeName != attribute.compositeName {
            add(.attributeTypeChanged, name, attribute.name, "type \(typeName(old)) → \(typeName(attribute))",
                TypeConversion(from: old, to: attribute).inference(entity: name), attribute.location)
        }
        if old.isOptional && !attribute.isOptional {
            if attribute.hasDefaultValue {
                add(.attributeBecameRequired, name, attribute.name, "optional → required; empty values get the default", .inferred, attribute.location)
            } else {
                add(.attributeBecameRequired, name, attribute.name, "optional → required, without a default",
                    .inferredIfData("no \(name) object lacks a \(attribute.name)"), attribute.location)
            }
        } else if !old.isOptional && attribute.isOptional {
            add(.attributeBecameOptional, name, attribute.name, "required → optional", .inferred, attribute.location)
        }
        if old.isDerived != attribute.isDerived || old.derivationExpression != attribute.derivationExpression {
            add(.derivationChanged, name, attribute.name, "derivation changed; values are computed again", .inferred, attribute.location)
        }
        if old.allowsExternalBinaryDataStorage != attribute.allowsExternalBinaryDataStorage {
            add(.externalStorageChanged, name, attribute.name, "external storage turned \(attribute.allowsExternalBinaryDataStorage ? "on" : "off")",
                .inferred, attribute.location)
        }
    }

    /// What existing objects get for a newly stored attribute.
    private func fillDescription(_ attribute: Attribute) -> String {
        attribute.hasDefaultValue ? "; existing objects get the default" : (attribute.isOptional ? "; existing objects have no value" : "")
    }

    /// A newly stored required attribute without a default has no value to give existing objects.
    private func valueInference(_ attribute: Attribute, entity: String) -> ModelChange.Inference {
        attribute.isOptional || attribute.hasDefaultValue || attribute.isDerived
            ? .inferred : .inferredIfData("the store has no \(entity) objects, since a required attribute without a default has no value to give them")
    }

    private func typeName(_ attribute: Attribute) -> String {
        attribute.compositeName.map { "Composite \($0)" } ?? attribute.type.rawValue
    }

    // MARK: Relationships

    private mutating func compare(_ relationship: Relationship, in entity: Entity) {
        let name = entity.name
        guard case .relationship(let old)? = mapping.sourceProperty(of: relationship.name, in: name) else {
            if relationship.isPersistent {
                add(.relationshipAdded, name, relationship.name, "new relationship", .inferred, relationship.location)
            }
            return
        }
        switch (old.isPersistent, relationship.isPersistent) {
        case (false, true):
            add(.relationshipBecameStored, name, relationship.name, "no longer transient", .inferred, relationship.location)
            return
        case (true, false):
            add(.relationshipBecameTransient, name, relationship.name, "became transient; its stored links are dropped", .inferred, relationship.location)
            return
        case (false, false):
            return
        case (true, true):
            break
        }
        if old.name != relationship.name {
            add(.relationshipRenamed, name, relationship.name, "renamed from \(old.name)", .inferred, relationship.location)
        }
        let oldDestination = mappedName(ofSourceEntity: old.destinationEntityName).flatMap(destination.entity(named:))
        let newDestination = relationship.destinationEntityName
        if oldDestination?.name != newDestination, !(oldDestination.map { destination.entity($0, isKindOf: newDestination) } ?? false) {
            let detail = "destination \(old.destinationEntityName) → \(newDestination)"
            if let oldDestination, let narrowed = destination.entity(named: newDestination),
               destination.entity(narrowed, isKindOf: oldDestination.name)
            {
                // Narrowed to a subentity: the links the store holds decide.
                add(.relationshipDestinationChanged, name, relationship.name, detail,
                    .inferredIfData("every object it links to is of entity \(newDestination)"), relationship.location)
            } else {
                add(.relationshipDestinationChanged, name, relationship.name, detail,
                    .notInferred("the objects it pointed to are not \(newDestination) objects; "
                        + "add a new relationship and link the objects in a custom stage"), relationship.location)
            }
        }
        if old.isToMany != relationship.isToMany {
            if relationship.isToMany {
                add(.relationshipBecameToMany, name, relationship.name, "to-one → to-many", .inferred, relationship.location)
            } else {
                add(.relationshipBecameToOne, name, relationship.name, "to-many → to-one",
                    .inferredIfData("no \(name) object links to more than one"), relationship.location)
            }
        } else if relationship.isToMany && old.isOrdered != relationship.isOrdered {
            add(.relationshipOrderChanged, name, relationship.name, relationship.isOrdered ? "became ordered" : "no longer ordered",
                .inferred, relationship.location)
        }
        let oldInverse = old.inverseName.flatMap { _ in source.inverse(of: old) }
        let newInverse = destination.inverse(of: relationship)
        let oldInverseName = oldInverse.map { inverse in
            mappedName(ofSourceEntity: old.destinationEntityName)
                .flatMap { mapping.destinationName(ofSourceProperty: inverse.name, in: $0) } ?? inverse.name
        }
        if oldInverseName != newInverse?.name {
            add(.relationshipInverseChanged, name, relationship.name,
                "inverse \(oldInverse?.name ?? "none") → \(newInverse?.name ?? "none")", .inferred, relationship.location)
        }
    }

    // MARK: Indexes and constraints

    /// The entity's indexes as text, with property names as the destination entity `entity` names them.
    private func indexSignature(of entity: Entity, mappedTo mappedEntity: String?) -> [String] {
        let rename = renamer(mappedEntity)
        let fetchIndexes = entity.fetchIndexes.map { index in
            index.elements.map { "\(rename($0.property ?? $0.expression ?? "")) \($0.kind) \($0.order)" }.joined(separator: ",")
        }
        let compound = entity.compoundIndexes.map { $0.properties.map { rename($0.name) }.joined(separator: ",") }
        let single = entity.attributes.filter(\.isIndexed).map { rename($0.name) }
            + entity.relationships.filter(\.isIndexed).map { rename($0.name) }
        return fetchIndexes.sorted() + ["|"] + compound.sorted() + ["|"] + single.sorted()
    }

    private func constraintSignature(of entity: Entity, mappedTo mappedEntity: String?) -> [String] {
        let rename = renamer(mappedEntity)
        return entity.uniquenessConstraints.map { $0.properties.map { rename($0.name) }.joined(separator: ",") }.sorted()
    }

    /// Maps a source property name to its destination name in `entity` (identity when nil).
    private func renamer(_ entity: String?) -> (String) -> String {
        guard let entity else { return { $0 } }
        return { mapping.destinationName(ofSourceProperty: $0, in: entity) ?? "(\($0))" }
    }
}

extension Property {
    var isFetched: Bool {
        if case .fetchedProperty = self { true } else { false }
    }
}
