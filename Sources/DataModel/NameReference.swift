/// A name that refers to another element of the model — a property in an index or constraint, an
/// entity in a configuration — with where the reference is written.
public struct NameReference: Sendable, Equatable, Encodable {
    public var name: String
    public var location: SourceLocation

    public init(_ name: String, at location: SourceLocation) {
        self.name = name
        self.location = location
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
