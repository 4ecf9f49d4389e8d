import DataModel

/// An element of a parsed XML document: name, attributes in document order, child elements and
/// where its start tag begins. Text content is not kept; model files carry everything in attributes.
struct XMLNode: Sendable {
    struct Attribute: Sendable {
        var name: String
        /// `XMLNames` id of `name`, -1 for names no vocabulary knows.
        var nameID: Int
        var value: String
    }

    var name: String
    var attributes: [Attribute]
    var children: [XMLNode]
    var location: SourceLocation

    /// The element verbatim, for `UnknownXML`.
    var unknownElement: UnknownXML.Element {
        UnknownXML.Element(
            name: name,
            attributes: attributes.map { UnknownXML.Attribute(name: $0.name, value: $0.value) },
            children: children.map(\.unknownElement),
            location: location)
    }
}
