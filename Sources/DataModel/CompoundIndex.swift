/// A legacy `<compoundIndex>` (Xcode 4–8): the properties of one multi-column index.
public struct CompoundIndex: Sendable, Equatable, Encodable {
    public var properties: [NameReference]
    public var location: SourceLocation

    public init(properties: [NameReference], location: SourceLocation) {
        self.properties = properties
        self.location = location
    }
}
