/// A Swift value type for a composite attribute, as generated code declares one per composite of
/// the model:
///
///     public struct ShelfSpot: CompositeAttribute {
///         public var room: String?
///         public var row: Int16
///         …
///     }
///
///     book.shelfSpot = ShelfSpot(room: "Attic", row: 3)
///     Book.shelfSpot.room == "Attic"   // a typed predicate on a member
public protocol CompositeAttribute: CompositeKeyValue, Hashable, Sendable where Composite == Self {
    /// The model's name of each member, by the Swift property that holds it: what typed predicates
    /// and sort descriptors on members (`Book.shelfSpot.room`) are named by.
    static var memberNames: [PartialKeyPath<Self>: String] { get }
    /// The composite from its members' values (missing members read as `nil` or zero).
    init(members: CompositeMembers)
    /// The members' values.
    var members: CompositeMembers { get }
}

extension CompositeAttribute {
    public static var unsetValue: Self { Self(members: CompositeMembers()) }

    public init?(attributeValue: AttributeValue) {
        guard case .composite(let values) = attributeValue else { return nil }
        self.init(members: CompositeMembers(values))
    }

    public var attributeValue: AttributeValue { .composite(members.values) }
}

/// The values of a composite's members by name, typed on the way in and out.
public struct CompositeMembers: Hashable, Sendable {
    /// The members that have a value.
    public private(set) var values: [String: AttributeValue]

    public init(_ values: [String: AttributeValue] = [:]) {
        self.values = values.filter { !$0.value.isNull }
    }

    /// The member `name` as a `Value`; a missing member, or one of another type, reads as `nil` (or
    /// `Value.unsetValue` when `Value` is not optional). Setting `nil` removes the member.
    public subscript<Value: AttributeStorable>(name: String) -> Value {
        get { Value(attributeValue: values[name] ?? .null) ?? Value.unsetValue }
        set {
            let value = newValue.attributeValue
            values[name] = value.isNull ? nil : value
        }
    }
}

/// What a key of a composite attribute holds: the composite, or an optional one. Member keys
/// (`Book.shelfSpot.room`) come from it.
public protocol CompositeKeyValue: AttributeStorable {
    associatedtype Composite: CompositeAttribute
}

extension Optional: CompositeKeyValue where Wrapped: CompositeAttribute {
    public typealias Composite = Wrapped
}

extension AttributeKey where Value: CompositeKeyValue {
    /// The key of a member, for typed predicates and sort descriptors: `Book.shelfSpot.room`,
    /// `Book.shelfSpot.position.x`. Read and write members through the composite's property.
    public subscript<Member: AttributeStorable>(dynamicMember keyPath: KeyPath<Value.Composite, Member>) -> AttributeKey<Root, Member> {
        AttributeKey<Root, Member>(name + "." + (Value.Composite.memberNames[keyPath] ?? "\(keyPath)"), slot: -1)
    }
}
