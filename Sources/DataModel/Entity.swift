/// An `<entity>`: a kind of object, its properties, indexes and constraints.
///
/// `attributes`, `relationships` and `fetchedProperties` are the entity's own, in document order;
/// ``Model/allProperties(of:)`` adds the inherited ones.
public struct Entity: Sendable, Equatable, Encodable {
    /// `codeGenerationType`: what Xcode would generate for the entity.
    public enum CodeGenerationType: String, Sendable, Equatable, CaseIterable, Encodable {
        /// Absent: Manual/None.
        case manual
        /// `class`: Class Definition.
        case classDefinition = "class"
        /// `category`: Category/Extension.
        case category
    }

    public var name: String
    /// `representedClassName`; nil when the model names none.
    public var className: ClassName?
    /// `parentEntity`: the superentity's name.
    public var parentName: String?
    public var isAbstract: Bool
    public var codeGenerationType: CodeGenerationType
    /// Renaming identifier used by migrations (`elementID`).
    public var elementID: String?
    public var versionHashModifier: String?
    public var isSyncable: Bool
    public var attributes: [Attribute]
    public var relationships: [Relationship]
    public var fetchedProperties: [FetchedProperty]
    public var fetchIndexes: [FetchIndex]
    public var compoundIndexes: [CompoundIndex]
    public var uniquenessConstraints: [UniquenessConstraint]
    public var userInfo: UserInfo
    public var unknownXML: UnknownXML?
    public var location: SourceLocation

    public init(
        name: String,
        parentName: String? = nil,
        isAbstract: Bool = false,
        attributes: [Attribute] = [],
        relationships: [Relationship] = [],
        location: SourceLocation
    ) {
        self.name = name
        className = nil
        self.parentName = parentName
        self.isAbstract = isAbstract
        codeGenerationType = .manual
        isSyncable = false
        self.attributes = attributes
        self.relationships = relationships
        fetchedProperties = []
        fetchIndexes = []
        compoundIndexes = []
        uniquenessConstraints = []
        userInfo = UserInfo()
        self.location = location
    }

    /// The entity's own properties of every kind, in document order within each kind.
    public var properties: [Property] {
        attributes.map(Property.attribute) + relationships.map(Property.relationship)
            + fetchedProperties.map(Property.fetchedProperty)
    }

    /// The own property named `name`, of any kind.
    public func ownProperty(named name: String) -> Property? {
        if let attribute = attributes.first(where: { $0.name == name }) { return .attribute(attribute) }
        if let relationship = relationships.first(where: { $0.name == name }) { return .relationship(relationship) }
        if let fetched = fetchedProperties.first(where: { $0.name == name }) { return .fetchedProperty(fetched) }
        return nil
    }

    /// Whether the entity itself declares a property named `name`.
    public func declaresProperty(named name: String) -> Bool {
        attributes.contains { $0.name == name } || relationships.contains { $0.name == name }
            || fetchedProperties.contains { $0.name == name }
    }

    /// Name, kind and location of every own property, without copying the properties themselves.
    var propertySummaries: [(name: String, kind: String, location: SourceLocation)] {
        attributes.map { ($0.name, Property.attributeKind, $0.location) }
            + relationships.map { ($0.name, Property.relationshipKind, $0.location) }
            + fetchedProperties.map { ($0.name, Property.fetchedPropertyKind, $0.location) }
    }

    /// The own attribute named `name`.
    public func attribute(named name: String) -> Attribute? {
        attributes.first { $0.name == name }
    }

    /// The own relationship named `name`.
    public func relationship(named name: String) -> Relationship? {
        relationships.first { $0.name == name }
    }
}
