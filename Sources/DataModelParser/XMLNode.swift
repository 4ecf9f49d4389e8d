import DataModel

/// An element of a parsed XML document: name, attributes in document order, child elements and
/// where its start tag begins. Text is kept only when asked for: model files carry everything in
/// attributes, mapping models' values are text.
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
    /// The text directly inside the element, when the reader keeps text.
    var text = ""
    /// Where the start tag begins; the file's path is added when decoding, so the tree carries no strings it does not need.
    var line: Int
    var column: Int

    /// The value of the attribute `name`.
    func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    func location(in file: String) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column)
    }

    /// The element verbatim, for `UnknownXML`.
    func unknownElement(in file: String) -> UnknownXML.Element {
        UnknownXML.Element(
            name: name,
            attributes: attributes.map { UnknownXML.Attribute(name: $0.name, value: $0.value) },
            children: children.map { $0.unknownElement(in: file) },
            location: location(in: file))
    }
}
