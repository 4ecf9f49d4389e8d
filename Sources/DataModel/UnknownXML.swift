/// XML that this version of DataModelKit does not understand, kept verbatim so nothing is lost.
///
/// The parser reports each unknown attribute and element as a warning; tools that round-trip models
/// or want to read a newer Xcode's additions find them here.
public struct UnknownXML: Sendable, Equatable, Encodable {
    /// An XML attribute as written.
    public struct Attribute: Sendable, Equatable, Encodable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// An XML element with its attributes and child elements (text content is not kept).
    public struct Element: Sendable, Equatable, Encodable {
        public var name: String
        public var attributes: [Attribute]
        public var children: [Element]
        public var location: SourceLocation

        public init(name: String, attributes: [Attribute], children: [Element], location: SourceLocation) {
            self.name = name
            self.attributes = attributes
            self.children = children
            self.location = location
        }
    }

    public var attributes: [Attribute]
    public var elements: [Element]

    public init(attributes: [Attribute] = [], elements: [Element] = []) {
        self.attributes = attributes
        self.elements = elements
    }

    public var isEmpty: Bool { attributes.isEmpty && elements.isEmpty }
}
