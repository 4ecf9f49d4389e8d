/// A `<fetchIndex>`: a named, possibly compound, store index (Xcode 9+).
public struct FetchIndex: Sendable, Equatable, Encodable {
    /// One `<fetchIndexElement>`: a property (or an expression) with a kind and an order.
    public struct Element: Sendable, Equatable, Encodable {
        public enum Kind: String, Sendable, Equatable, CaseIterable, Encodable {
            case binary = "Binary"
            case rTree = "RTree"
        }

        public enum Order: String, Sendable, Equatable, CaseIterable, Encodable {
            case ascending
            case descending
        }

        /// The indexed property; nil for an expression element.
        public var property: String?
        /// An expression index (`expression="…"`), a rare spelling kept for completeness.
        public var expression: String?
        public var expressionType: String?
        public var kind: Kind
        public var order: Order
        public var location: SourceLocation

        public init(property: String?, kind: Kind = .binary, order: Order = .ascending, location: SourceLocation) {
            self.property = property
            self.kind = kind
            self.order = order
            self.location = location
        }
    }

    public var name: String
    public var elements: [Element]
    public var unknownXML: UnknownXML?
    public var location: SourceLocation

    public init(name: String, elements: [Element], location: SourceLocation) {
        self.name = name
        self.elements = elements
        self.location = location
    }
}
