import Observation

/// Observation (`withObservationTracking`, `Observations`, SwiftUI): reading a property registers
/// it, and every change of its value notifies its observers once — a setter's, and the runtime's
/// own (merges, refreshes, rollback, undo, inverse relationships, derived values a save computed).
///
/// Each object gets its `ObservationRegistrar` on its first read under observation tracking, as
/// Observation needs one to register a read (`ObservationTrackingProbe` tells a read under tracking
/// from another); objects never read so cost nothing, and changes to objects without one skip the
/// notification, which nothing observes. Properties are observed by slot, with key paths made once
/// per slot.
extension ManagedObject: Observable {
    /// Registers a read of the attribute in `slot` with the observation tracking in progress, if any.
    @usableFromInline
    func registerAccess(toAttributeAt slot: Int) {
        guard registersReads, let box = observationBoxForReading else { return }
        box.registrar.access(self, keyPath: entity.observationKeys.attributes[slot])
    }

    /// Registers a read of the relationship in `slot`.
    func registerAccess(toRelationshipAt slot: Int) {
        guard registersReads, let box = observationBoxForReading else { return }
        box.registrar.access(self, keyPath: entity.observationKeys.relationships[slot])
    }

    /// The object's registrar, if a read made one.
    var observationRegistrar: ObservationRegistrar? { observationBox?.registrar }

    /// The box of the object's registrar, made on the first read under observation tracking;
    /// `nil` for a read without, which has nothing to register with. (The box, not the
    /// registrar: an optional of Observation's resilient type is handled through its metadata.)
    private var observationBoxForReading: ObservationBox? {
        if let observationBox { return observationBox }
        if let context, !context.observationProbe.isTracking(self) { return nil }
        let box = ObservationBox()
        observationBox = box
        return box
    }

    /// Runs `change` of the attribute in `slot`, telling its observers before and after.
    func changingAttribute(at slot: Int, _ change: () -> Void) {
        guard let observationRegistrar else { return change() }
        observationRegistrar.withMutation(of: self, keyPath: entity.observationKeys.attributes[slot], change)
    }

    /// Runs `change`, which sets the relationship in `slot` to `value`, telling its observers
    /// before and after when their next read will return other destinations.
    func changingRelationship(at slot: Int, to value: RelationshipValue, _ change: () -> Void) {
        guard let observationRegistrar, slot < relationshipValues.count,
              !Self.sameDestinations(relationshipValues[slot], value, isOrdered: entity.relationships[slot].isOrdered)
        else { return change() }
        observationRegistrar.withMutation(of: self, keyPath: entity.observationKeys.relationships[slot], change)
    }

    /// Runs `change`, which may change any of the object's values, then tells the observers of each
    /// property it changed: a value that differs, or a loaded value that it unloaded (the object
    /// turned into a fault, whose next read may find another value) when `unloadedMayDiffer`
    /// includes the property — all of them unless a change set names those that changed. Values
    /// it loads are no change: a read would have loaded them.
    func changingValues(unloadedMayDiffer names: Set<String>? = nil, _ change: () -> Void) {
        guard let observationRegistrar, valueStorage != .none || !relationshipValues.isEmpty else { return change() }
        let attributes = currentAttributeValues, relationships = relationshipValues
        change()
        let entity = entity, keys = entity.observationKeys
        let currentAttributes = currentAttributeValues, currentRelationships = relationshipValues
        func notify<Value>(_ keyPath: KeyPath<ManagedObject, Value>) {
            observationRegistrar.willSet(self, keyPath: keyPath)
            observationRegistrar.didSet(self, keyPath: keyPath)
        }
        func mayDiffer(_ name: String) -> Bool { names?.contains(name) ?? true }
        for slot in attributes.indices {
            let changed = slot < currentAttributes.count
                ? attributes[slot] != currentAttributes[slot] : mayDiffer(entity.attributes[slot].name)
            if changed { notify(keys.attributes[slot]) }
        }
        for (slot, value) in relationships.enumerated() {
            if case .unloaded = value { continue }
            let relationship = entity.relationships[slot]
            let current = slot < currentRelationships.count ? currentRelationships[slot] : .unloaded
            let changed = if case .unloaded = current {
                mayDiffer(relationship.name)
            } else {
                !Self.sameDestinations(value, current, isOrdered: relationship.isOrdered)
            }
            if changed { notify(keys.relationships[slot]) }
        }
    }

    /// Whether two values of a relationship hold the same destinations: in the same order when it
    /// is ordered, in any order when a read returns them as a set.
    private static func sameDestinations(_ lhs: RelationshipValue, _ rhs: RelationshipValue, isOrdered: Bool) -> Bool {
        if !isOrdered, case .toMany(let left) = lhs, case .toMany(let right) = rhs { return left.hasSameMembers(as: right) }
        return ObjectContext.same(lhs, rhs)
    }

    // The properties observation tracks, by slot: their values are never read through these.
    subscript(observedAttribute slot: Int) -> AttributeValue { primitiveValue(atSlot: slot) }
    subscript(observedRelationship slot: Int) -> RelationshipValue {
        slot < relationshipValues.count ? relationshipValues[slot] : .unloaded
    }
}

/// An object's registrar, behind a reference. Observation is a resilient module: kept in the
/// object, the registrar's size, known only at run time, would place every stored property after
/// it, generated subclasses' included, at offsets read at run time, and each object's `deinit`
/// would ask the runtime how to destroy it.
final class ObservationBox {
    let registrar = ObservationRegistrar()
}

/// The key paths observation tracks properties by, one per slot. They name a slot, not an entity
/// (each object has its own registrar), so every entity of every store shares one list, grown to
/// the largest entity: a model of a thousand entities makes them once, not per entity.
struct ObservationKeys: @unchecked Sendable {
    // Key paths are immutable; a copy handed out is never changed, only the shared list grows.
    private(set) var attributes: [KeyPath<ManagedObject, AttributeValue>] = []
    private(set) var relationships: [KeyPath<ManagedObject, RelationshipValue>] = []

    /// Keys for at least `attributeCount` attributes and `relationshipCount` relationships.
    static func covering(attributeCount: Int, relationshipCount: Int) -> ObservationKeys {
        shared.withLock { keys in
            if keys.attributes.count < attributeCount {
                keys.attributes += (keys.attributes.count..<attributeCount).map { \ManagedObject.[observedAttribute: $0] }
            }
            if keys.relationships.count < relationshipCount {
                keys.relationships += (keys.relationships.count..<relationshipCount).map { \ManagedObject.[observedRelationship: $0] }
            }
            return keys
        }
    }

    private static let shared = Locked(ObservationKeys())
}
