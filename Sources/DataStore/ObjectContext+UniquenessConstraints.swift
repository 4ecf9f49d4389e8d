/// Settling uniqueness-constraint clashes of inserted objects by the context's `mergePolicy`: the
/// upsert Core Data apps rely on (`NSConstraintConflict` resolved by `NSMergePolicy`).
///
/// An inserted object clashes when another object of its entity — inserted in the same save, or
/// already stored — has its values for every name of one of the entity's uniqueness constraints
/// (`nil` clashes with nothing). The earliest such object survives: the stored one, else the first
/// inserted; each later one is merged into it by the policy and then forgotten, as Core Data
/// deletes the losers of a constraint conflict. The survivor keeps its `ObjectID` and its row, so
/// whatever already points at a stored object goes on pointing at it.
///
/// What a merge keeps of a later object, property by property (attributes and to-ones):
/// - `mergeByPropertyObjectTrump`: its values where it has one; the survivor's where it has `nil`.
/// - `overwrite`: its values, `nil`s included.
/// - `mergeByPropertyStoreTrump`: the survivor's values where it has one; the later object's fill
///   its `nil`s.
/// - `rollback`: none.
/// What pointed at the later object through an inverse points at the survivor, whatever the
/// policy: the later object's to-many destinations join the survivor's, since each of them holds
/// the reference. A reference without an inverse is not followed (Core Data asks for inverses for
/// the same reason), nor is a to-one partner of a one-to-one the policy does not take.
///
/// A constraint holds across its entity's table, as its unique index does: an object of a
/// subentity clashes with one of its parent entity that has the same values.
extension ObjectContext {
    /// Merges every inserted object that clashes on a uniqueness constraint into the object it
    /// clashes with, by `mergePolicy`; nothing under `.error`, whose save reports the clash.
    func settleUniquenessClashes() throws(SaveError) {
        guard mergePolicy != .error else { return }
        let constrained = inserted.objects.filter { !deleted.contains($0) && !$0.entity.uniquenessConstraints.isEmpty }
        guard !constrained.isEmpty else { return }
        // A constraint holds across its entity's table: objects of an entity and of its subentities
        // clash with each other, so each constraint gathers them under the highest entity that has
        // its properties. The groups of an entity are found once, then filled in insertion order.
        var groups: [(scope: EntityDescription, constraint: [String], objects: [ManagedObject])] = []
        var groupsByEntity: [Int: [Int]] = [:]
        var groupsByScope: [ConstraintScopeKey: Int] = [:]
        for object in constrained {
            let entity = object.entity
            if groupsByEntity[entity.number] == nil {
                groupsByEntity[entity.number] = entity.uniquenessConstraints.map { constraint in
                    let scope = constraintScope(of: entity, constraint)
                    let key = ConstraintScopeKey(entity: scope.number, constraint: constraint)
                    if let position = groupsByScope[key] { return position }
                    groupsByScope[key] = groups.count
                    groups.append((scope, constraint, []))
                    return groups.count - 1
                }
            }
            for position in groupsByEntity[entity.number]! { groups[position].objects.append(object) }
        }
        for group in groups {
            try settle(group.objects.filter { !deleted.contains($0) }, clashingOn: group.constraint, entityName: group.scope.name)
        }
    }

    /// A constraint of the entity whose table it holds across.
    private struct ConstraintScopeKey: Hashable {
        var entity: Int
        var constraint: [String]
    }

    /// The highest entity above `entity` (or itself) that has every property of `constraint`.
    private func constraintScope(of entity: EntityDescription, _ constraint: [String]) -> EntityDescription {
        var scope = entity
        while let name = scope.superentityName, let parent = store.entity(named: name),
              constraint.allSatisfy({ parent.attribute(named: $0) != nil || parent.relationship(named: $0) != nil }) {
            scope = parent
        }
        return scope
    }

    /// One constraint's clashes among `objects` (inserted, of entity `entityName`) and with the
    /// store, settled by the merge policy.
    private func settle(_ objects: [ManagedObject], clashingOn constraint: [String], entityName: String) throws(SaveError) {
        // The inserted objects of each key, in the order they came (the first kept apart: most keys
        // have one); a stored object found below.
        var groups: [(key: ConstraintKey, first: ManagedObject, later: [ManagedObject], stored: ManagedObject?)] = []
        var positions: [ConstraintKey: Int] = [:]
        positions.reserveCapacity(objects.count)
        var reader = ConstraintReader(constraint: constraint)
        for object in objects {
            guard let key = reader.key(of: object, in: self) else { continue }
            // One lookup for a key not seen before, the common case.
            if let position = positions.updateValue(groups.count, forKey: key) {
                positions[key] = position
                groups[position].later.append(object)
            } else {
                groups.append((key, object, [], nil))
            }
        }
        // The stored objects with those values, in batches a statement holds: as many keys as the
        // engine binds values, up to 5,000 (a few MB of objects); an `OR` of several names' keys
        // stays at 500, under SQLite's expression depth of 1,000.
        let storable = groups.map(\.key).filter(\.isStorable)
        let batch = constraint.count == 1 ? min(5_000, store.dialect.maximumBoundValues) : min(500, store.dialect.maximumBoundValues / constraint.count)
        for start in stride(from: 0, to: storable.count, by: batch) {
            let keys = Array(storable[start..<min(start + batch, storable.count)])
            var request = FetchRequest<ManagedObject>(entityName: entityName, predicate: Self.matching(keys, on: constraint))
            // The rows as stored: the inserted objects are the ones being matched.
            request.includesPendingChanges = false
            let stored: [ManagedObject]
            do {
                stored = try fetch(request)
            } catch {
                throw .database(message: "reading the objects a uniqueness constraint of \(entityName) could clash with: \(error)")
            }
            for existing in stored where !existing.isInserted && !deleted.contains(existing) {
                guard let key = reader.key(of: existing, in: self), let position = positions[key] else { continue }
                groups[position].stored = existing
            }
        }
        guard case .custom(let policy) = mergePolicy else {
            // Merged at once: no conflict made for a built-in policy (an upsert has one per object).
            for group in groups {
                let survivor = group.stored ?? group.first
                if group.stored != nil { mergeIfLive(group.first, into: survivor, by: mergePolicy) }
                for object in group.later { mergeIfLive(object, into: survivor, by: mergePolicy) }
            }
            return
        }
        let conflicts = groups.filter { $0.stored != nil || !$0.later.isEmpty }.map {
            ConstraintConflict(constraint: constraint, databaseObject: $0.stored, conflictingObjects: [$0.first] + $0.later)
        }
        guard !conflicts.isEmpty else { return }
        do {
            try policy.resolve(constraintConflicts: conflicts, in: self)
        } catch {
            throw .mergePolicyFailed(message: "\(error)")
        }
    }

    /// Merges each inserted object of `conflict` but its survivor into the survivor, by `policy`;
    /// nothing under `.error`, whose save then reports the clash.
    func merge(_ conflict: ConstraintConflict, by policy: MergePolicy) {
        guard policy.builtIn != .error else { return }
        let survivor = conflict.survivor
        for object in conflict.conflictingObjects { mergeIfLive(object, into: survivor, by: policy.builtIn) }
    }

    /// Merges `object` into `survivor` unless it is the survivor, or gone from this context.
    private func mergeIfLive(_ object: ManagedObject, into survivor: ManagedObject, by policy: MergePolicy) {
        guard object !== survivor, object.context === self, !deleted.contains(object) else { return }
        merge(object, into: survivor, by: policy)
    }

    /// Merges `object` (inserted) into `survivor` by `policy`, moves its relationships' other
    /// sides to the survivor, and forgets it.
    private func merge(_ object: ManagedObject, into survivor: ManagedObject, by policy: MergePolicy) {
        func takes(_ value: Bool, over current: Bool) -> Bool {
            switch policy {
            case .mergeByPropertyObjectTrump: value
            case .overwrite: true
            case .mergeByPropertyStoreTrump: value && !current
            case .rollback, .error, .custom: false
            }
        }
        // By name: the survivor may be of another entity of the hierarchy, with other slots.
        let entity = object.entity, sameEntity = survivor.entity === entity
        // Each object's values read at once: a generated class's properties are read by visiting
        // them all, so slot by slot would visit them once per attribute.
        let values = object.currentAttributeValues
        let survivorValues = sameEntity ? survivor.currentAttributeValues : AttributeValues()
        // By index: an attribute's description is large, and only its slot and name are read.
        for index in entity.attributes.indices where !entity.attributes[index].isDerived {
            let slot = entity.attributes[index].slot
            guard slot < values.count else { continue }
            let targetSlot: Int
            if sameEntity {
                targetSlot = slot
            } else {
                guard let target = survivor.entity.attribute(named: entity.attributes[index].name), !target.isDerived else { continue }
                targetSlot = target.slot
            }
            let value = values[slot]
            let current = targetSlot < survivorValues.count ? survivorValues[targetSlot] : survivor.primitiveValue(atSlot: targetSlot)
            if value != current, takes(value != .null, over: current != .null) {
                survivor.setAttributeValue(value, atSlot: targetSlot)
            }
        }
        for relationship in object.entity.relationships where !relationship.isTransient {
            let slot = relationship.slot
            let target = sameEntity ? relationship : survivor.entity.relationship(named: relationship.name)
            if relationship.isToOne {
                let destination = destinationID(of: object, slot: slot)
                setDestination(nil, of: object, slot: slot)
                guard let target else { continue }
                let current = destinationID(of: survivor, slot: target.slot)
                if destination != current, takes(destination != nil, over: current != nil) {
                    setDestination(destination.map(self.object(with:)), of: survivor, slot: target.slot)
                }
            } else {
                let members = destinationIDs(of: object, slot: slot).ids.map(self.object(with:))
                for member in members {
                    removeDestination(member, from: object, slot: slot)
                    if let target { addDestination(member, to: survivor, slot: target.slot, at: nil) }
                }
            }
        }
        // Its values live on in the survivor: it is not told of a deletion (`prepareForDeletion`).
        object.changeFlags.insert(.preparedForDeletion)
        delete(object)
    }

    /// `name IN {…}` for a constraint of one name; an `OR` of each key's values otherwise.
    private static func matching(_ keys: [ConstraintKey], on constraint: [String]) -> ObjectPredicate {
        func key(_ name: String) -> PredicateExpression { .keyPath(.evaluatedObject, [name]) }
        if constraint.count == 1 {
            return .comparison(PredicateComparison(key(constraint[0]), .in, .constant(.collection(keys.map { $0.values[0].predicateValue }))))
        }
        return .or(keys.map { values in
            .and(zip(constraint, values.values).map { name, value in
                .comparison(PredicateComparison(key(name), .equal, .constant(value.predicateValue)))
            })
        })
    }
}

/// Reads objects' values for one uniqueness constraint, with its names found once per entity.
private struct ConstraintReader {
    /// Where one name of the constraint keeps its value in an entity's objects.
    private enum Field {
        case attribute(slot: Int)
        case toOne(slot: Int)
        /// Neither an attribute nor a to-one: nothing clashes on it.
        case none
    }

    let constraint: [String]
    private var fieldsByEntity: [Int: [Field]] = [:]
    private var lastEntity: EntityDescription?
    private var lastFields: [Field] = []

    init(constraint: [String]) {
        self.constraint = constraint
    }

    /// The object's values for the constraint's names; `nil` when one is `nil`, which clashes with
    /// nothing.
    mutating func key(of object: ManagedObject, in context: ObjectContext) -> ConstraintKey? {
        let entity = object.entity
        // Objects come an entity at a time: the last entity's fields, without a lookup.
        if entity !== lastEntity {
            lastFields = fields(of: entity)
            lastEntity = entity
        }
        if lastFields.count == 1 { return value(of: object, lastFields[0], in: context).map(ConstraintKey.one) }
        var values: [ConstraintValue] = []
        values.reserveCapacity(lastFields.count)
        for field in lastFields {
            guard let value = value(of: object, field, in: context) else { return nil }
            values.append(value)
        }
        return .many(values)
    }

    private mutating func fields(of entity: EntityDescription) -> [Field] {
        if let fields = fieldsByEntity[entity.number] { return fields }
        let fields = constraint.map { name -> Field in
            if let attribute = entity.attribute(named: name) { return .attribute(slot: attribute.slot) }
            if let relationship = entity.relationship(named: name), relationship.isToOne { return .toOne(slot: relationship.slot) }
            return .none
        }
        fieldsByEntity[entity.number] = fields
        return fields
    }

    private func value(of object: ManagedObject, _ field: Field, in context: ObjectContext) -> ConstraintValue? {
        switch field {
        case .attribute(let slot):
            let value = object.primitiveValue(atSlot: slot)
            return value == .null ? nil : .attribute(value)
        case .toOne(let slot):
            return context.destinationID(of: object, slot: slot).map(ConstraintValue.object)
        case .none:
            return nil
        }
    }
}

/// An object's values for a uniqueness constraint: one value (most constraints name one
/// attribute), kept without an array, or several.
private enum ConstraintKey: Hashable {
    case one(ConstraintValue)
    case many([ConstraintValue])

    var values: [ConstraintValue] {
        switch self {
        case .one(let value): [value]
        case .many(let values): values
        }
    }

    /// Whether a stored row can have these values.
    var isStorable: Bool {
        switch self {
        case .one(let value): value.isStorable
        case .many(let values): values.allSatisfy(\.isStorable)
        }
    }
}

/// A value of a uniqueness constraint: an attribute's, or a to-one's destination.
private enum ConstraintValue: Hashable {
    case attribute(AttributeValue)
    case object(ObjectID)

    /// Whether a stored row can hold it: an object not yet saved is no row's destination.
    var isStorable: Bool {
        if case .object(let id) = self { id.primaryKey != nil } else { true }
    }

    var predicateValue: PredicateValue {
        switch self {
        case .attribute(let value): .attribute(value)
        case .object(let id): .object(id)
        }
    }

    /// The common keys, integers and strings, hashed directly: an upsert hashes one per object.
    func hash(into hasher: inout Hasher) {
        switch self {
        case .attribute(.integer(let number)): hasher.combine(number)
        case .attribute(.string(let text)): hasher.combine(text)
        case .attribute(let value): hasher.combine(value)
        case .object(let id): hasher.combine(id)
        }
    }
}
