/// A model-level `<composite>` (Xcode 15+): a named group of attributes that an entity attribute of
/// type `Composite` embeds. Composites may nest.
public struct Composite: Sendable, Equatable, Encodable {
    public var name: String
    public var attributes: [Attribute]
    public var unknownXML: UnknownXML?
    public var location: SourceLocation

    public init(name: String, attributes: [Attribute], location: SourceLocation) {
        self.name = name
        self.attributes = attributes
        self.location = location
    }
}
