/// A named `<configuration>`: a subset of entities that can be placed in its own store.
///
/// The implicit `Default` configuration (every entity) is not written in the XML and not listed here.
public struct Configuration: Sendable, Equatable, Encodable {
    public var name: String
    public var memberEntities: [NameReference]
    public var unknownXML: UnknownXML?
    public var location: SourceLocation

    public init(name: String, memberEntities: [NameReference], location: SourceLocation) {
        self.name = name
        self.memberEntities = memberEntities
        self.location = location
    }
}
