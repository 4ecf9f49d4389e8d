/// A typed attribute of an entity class, as generated code declares it (`Book.title`): used to read
/// and write the property and, later, in typed predicates and sort descriptors.
///
/// `slot` is the attribute's index among its entity's attributes (inherited ones first); a key whose
/// slot does not match the entity (stale generated code) falls back to a lookup by name. The key of
/// a composite attribute leads to its members' keys (`Book.shelfSpot.room`).
@dynamicMemberLookup
public struct AttributeKey<Root: ManagedObject, Value: AttributeStorable>: Sendable {
    public let name: String
    public let slot: Int

    public init(_ name: String, slot: Int) {
        self.name = name
        self.slot = slot
    }
}

/// A typed to-one relationship of an entity class.
public struct ToOneKey<Root: ManagedObject, Destination: ManagedObject>: Sendable {
    public let name: String
    public let slot: Int

    public init(_ name: String, slot: Int) {
        self.name = name
        self.slot = slot
    }
}

/// A typed to-many relationship of an entity class, unordered (`Set`) or ordered (`Array`).
public struct ToManyKey<Root: ManagedObject, Destination: ManagedObject>: Sendable {
    public let name: String
    public let slot: Int

    public init(_ name: String, slot: Int) {
        self.name = name
        self.slot = slot
    }
}
