/// A `<uniquenessConstraint>`: properties whose values together must be unique in the entity.
public struct UniquenessConstraint: Sendable, Equatable, Encodable {
    public var properties: [NameReference]
    public var location: SourceLocation

    public init(properties: [NameReference], location: SourceLocation) {
        self.properties = properties
        self.location = location
    }
}
