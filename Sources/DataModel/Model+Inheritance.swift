/// Facts derived from the inheritance graph and relationship inverses.
///
/// Every walk guards against cycles, so these are safe on models the validator rejects.
extension Model {
    /// The superentities of `entity`, nearest first, stopping before a cycle or an unknown parent.
    public func parentChain(of entity: Entity) -> [Entity] {
        var chain: [Entity] = []
        var seen: Set<String> = [entity.name]
        var next = entity.parentName
        while let name = next, let parent = self.entity(named: name), seen.insert(name).inserted {
            chain.append(parent)
            next = parent.parentName
        }
        return chain
    }

    /// The root of `entity`'s hierarchy: the last entity of its parent chain, or itself.
    public func rootEntity(of entity: Entity) -> Entity {
        parentChain(of: entity).last ?? entity
    }

    /// The direct subentities of `entity`, in document order.
    public func subentities(of entity: Entity) -> [Entity] {
        (entityIndex.children[entity.name] ?? []).map { entities[$0] }
    }

    /// Every entity below `entity` in pre-order, children in document order.
    public func descendants(of entity: Entity) -> [Entity] {
        var result: [Entity] = []
        var seen: Set<String> = [entity.name]
        func visit(_ parent: Entity) {
            for child in subentities(of: parent) where seen.insert(child.name).inserted {
                result.append(child)
                visit(child)
            }
        }
        visit(entity)
        return result
    }

    /// Whether `ancestorName` is `entity` or one of its superentities.
    public func entity(_ entity: Entity, isKindOf ancestorName: String) -> Bool {
        var next: String? = entity.name
        var steps = 0
        while let current = next, steps <= entities.count {
            if current == ancestorName { return true }
            guard let position = entityIndex.positions[current] else { return false }
            next = entities[position].parentName
            steps += 1
        }
        return false
    }

    /// Every property of `entity`: inherited ones first (root first), then its own.
    public func allProperties(of entity: Entity) -> [Property] {
        (parentChain(of: entity).reversed() + [entity]).flatMap(\.properties)
    }

    /// Every attribute of `entity`, inherited ones first.
    public func allAttributes(of entity: Entity) -> [Attribute] {
        (parentChain(of: entity).reversed() + [entity]).flatMap(\.attributes)
    }

    /// Every relationship of `entity`, inherited ones first.
    public func allRelationships(of entity: Entity) -> [Relationship] {
        (parentChain(of: entity).reversed() + [entity]).flatMap(\.relationships)
    }

    /// The property named `name` of `entity`, own or inherited (the nearest declaration wins).
    public func property(named name: String, in entity: Entity) -> Property? {
        if let property = entity.ownProperty(named: name) { return property }
        return inheritedProperty(named: name, below: entity.parentName)
    }

    /// Whether the model has an entity named `name`.
    public func containsEntity(named name: String) -> Bool {
        entityIndex.positions[name] != nil
    }

    /// The property named `name` of the entity named `entityName`, own or inherited.
    public func property(named name: String, inEntityNamed entityName: String) -> Property? {
        declaringPosition(ofProperty: name, below: entityName).flatMap { entities[$0].ownProperty(named: name) }
    }

    /// The name of the entity that declares the property `name` seen from the entity named
    /// `entityName`: that entity itself or the superentity it inherits the property from.
    public func declaringEntityName(ofProperty name: String, inEntityNamed entityName: String) -> String? {
        declaringPosition(ofProperty: name, below: entityName).map { entities[$0].name }
    }

    /// Searches the entity named `start` and its superentities, in place: no entity is copied, and the
    /// walk stops after as many steps as there are entities, so cycles end it.
    private func inheritedProperty(named name: String, below start: String?) -> Property? {
        guard let start else { return nil }
        return property(named: name, inEntityNamed: start)
    }

    /// The position in `entities` of the entity that declares the property `name`.
    private func declaringPosition(ofProperty name: String, below start: String) -> Int? {
        var next: String? = start
        var steps = 0
        while let current = next, let position = entityIndex.positions[current], steps < entities.count {
            if entities[position].declaresProperty(named: name) { return position }
            next = entities[position].parentName
            steps += 1
        }
        return nil
    }

    /// Where the inverse of `relationship` is declared: the position of the entity in `entities` and
    /// of the relationship in its `relationships`. Read in place — nothing is copied — for code that
    /// looks up many inverses.
    ///
    /// Only a reciprocal inverse counts: one whose own inverse is `relationship`. Xcode compiles a
    /// model where `Image.artist` names `Artist.thumbnail` while `Artist.thumbnail` names
    /// `Image.thumbnail`; that pair keeps each other in step, and `Image.artist` is stored and kept
    /// on its own, like a relationship without an inverse.
    public func inverseLocation(of relationship: Relationship) -> (entity: Int, relationship: Int)? {
        guard let found = declaredInverseLocation(of: relationship) else { return nil }
        let inverse = entities[found.entity].relationships[found.relationship]
        guard inverse.inverseName == relationship.name, let back = declaredInverseLocation(of: inverse),
              entities[back.entity].relationships[back.relationship] == relationship
        else { return nil }
        return found
    }

    /// Whether `relationship` names an inverse that names another relationship as its own inverse.
    public func hasNonReciprocalInverse(_ relationship: Relationship) -> Bool {
        declaredInverseLocation(of: relationship) != nil && inverseLocation(of: relationship) == nil
    }

    /// Where the relationship that `relationship` names as its inverse is declared, whether or not it
    /// names `relationship` back.
    private func declaredInverseLocation(of relationship: Relationship) -> (entity: Int, relationship: Int)? {
        guard let inverseName = relationship.inverseName else { return nil }
        var next: String? = relationship.inverseEntityName ?? relationship.destinationEntityName
        var steps = 0
        while let current = next, let position = entityIndex.positions[current], steps < entities.count {
            // Relationships first: the inverse nearly always is one, and attributes are many more.
            if let index = entities[position].relationships.firstIndex(where: { $0.name == inverseName }) {
                return (position, index)
            }
            // Declared here as another kind of property, which hides any inherited relationship.
            if entities[position].declaresProperty(named: inverseName) { return nil }
            next = entities[position].parentName
            steps += 1
        }
        return nil
    }

    /// The destination entity of `relationship`.
    public func destination(of relationship: Relationship) -> Entity? {
        entity(named: relationship.destinationEntityName)
    }

    /// The inverse of `relationship`: the relationship named `inverseName` on `inverseEntity`
    /// (own or inherited), when it names `relationship` back.
    public func inverse(of relationship: Relationship) -> Relationship? {
        inverseLocation(of: relationship).map { entities[$0.entity].relationships[$0.relationship] }
    }
}
