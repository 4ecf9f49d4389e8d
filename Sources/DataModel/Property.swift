/// Any property of an entity: an attribute, a relationship or a fetched property.
public enum Property: Sendable, Equatable {
    case attribute(Attribute)
    case relationship(Relationship)
    case fetchedProperty(FetchedProperty)

    public var name: String {
        switch self {
        case .attribute(let attribute): attribute.name
        case .relationship(let relationship): relationship.name
        case .fetchedProperty(let fetchedProperty): fetchedProperty.name
        }
    }

    public var location: SourceLocation {
        switch self {
        case .attribute(let attribute): attribute.location
        case .relationship(let relationship): relationship.location
        case .fetchedProperty(let fetchedProperty): fetchedProperty.location
        }
    }

    /// Whether the property has storage in the store: non-transient attributes and relationships.
    public var isPersistent: Bool {
        switch self {
        case .attribute(let attribute): attribute.isPersistent
        case .relationship(let relationship): relationship.isPersistent
        case .fetchedProperty: false
        }
    }

    /// A word for messages: "attribute", "relationship" or "fetched property".
    public var kindDescription: String {
        switch self {
        case .attribute: Self.attributeKind
        case .relationship: Self.relationshipKind
        case .fetchedProperty: Self.fetchedPropertyKind
        }
    }

    static let attributeKind = "attribute"
    static let relationshipKind = "relationship"
    static let fetchedPropertyKind = "fetched property"
}
