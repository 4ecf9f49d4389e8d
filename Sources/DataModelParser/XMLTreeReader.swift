import CLibXML2
import Foundation
import DataModel

/// Reads an XML document into an `XMLNode` tree with the line and column of every start tag.
///
/// libxml2's SAX2 interface does the parsing; its DOM only records line numbers, so the column comes
/// from the parser's byte position at each start tag: the tag begins at the last `<` before it
/// (a raw `<` cannot occur inside a well-formed tag). No DTD or external entity is ever loaded.
final class XMLTreeReader {
    /// What a successful read produced.
    struct Result {
        var root: XMLNode
        /// libxml2's non-fatal complaints (namespace warnings and the like).
        var diagnostics: [Diagnostic]
    }

    private let path: String
    private var bytes: UnsafeBufferPointer<UInt8>
    private var context: xmlParserCtxtPtr?
    private var cursor = LineCursor()
    private var stack: [XMLNode] = []
    private var root: XMLNode?
    private var diagnostics: [Diagnostic] = []
    private var fatal: Diagnostic?
    /// Element and attribute names by libxml2's interned pointer: a model repeats a few dozen names
    /// tens of thousands of times, so each is decoded once. Direct-mapped: a miss only costs a decode.
    private var names = [CachedName?](repeating: nil, count: 256)

    private struct CachedName {
        var pointer: UnsafeRawPointer
        var name: String
        var id: Int
    }

    /// Whether elements keep their text: a model's carry none, a mapping model's values are text.
    private let keepsText: Bool
    /// What the document should be, for the error about an empty file.
    private let expected: String

    private init(path: String, bytes: UnsafeBufferPointer<UInt8>, keepsText: Bool, expected: String) {
        self.path = path
        self.bytes = bytes
        self.keepsText = keepsText
        self.expected = expected
    }

    /// Parses `bytes`; a document that is not well-formed XML throws with libxml2's first fatal
    /// error. With `keepingText`, each element keeps the text directly inside it.
    static func read(
        _ bytes: [UInt8], path: String, keepingText: Bool = false,
        expected: String = "a model's contents is an XML document whose root element is <model>"
    ) throws(ModelLoadingError) -> Result {
        libxml2IsInitialized.touch()
        let outcome: Swift.Result<Result, ModelLoadingError> = bytes.withUnsafeBufferPointer { buffer in
            let reader = XMLTreeReader(path: path, bytes: buffer, keepsText: keepingText, expected: expected)
            return reader.run()
        }
        return try outcome.get()
    }

    private func run() -> Swift.Result<Result, ModelLoadingError> {
        guard bytes.count > 0 else {
            return .failure(ModelLoadingError(.malformedXML, "the file is empty; \(expected)", at: SourceLocation(file: path, line: 1, column: 1)))
        }
        guard bytes.count <= Int(Int32.max),
              let context = xmlCreateMemoryParserCtxt(
                UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(bytes.count))
        else {
            return .failure(ModelLoadingError(.unreadable, "the file is too large to parse", at: SourceLocation(file: path)))
        }
        self.context = context
        defer {
            if let document = context.pointee.myDoc { xmlFreeDoc(document) }
            xmlFreeParserCtxt(context)
            self.context = nil
        }
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
        var handler = Self.makeHandler()
        if keepsText {
            handler.characters = { userData, characters, length in
                guard let userData, let characters, length > 0 else { return }
                XMLTreeReader.from(userData).append(UnsafeBufferPointer(start: characters, count: Int(length)))
            }
        }
        context.pointee.sax.pointee = handler
        context.pointee.userData = Unmanaged.passUnretained(self).toOpaque()
        // Encoding and I/O errors bypass the context's handler; catch them on this thread too, so
        // libxml2 never prints to standard error itself.
        xmlSetStructuredErrorFunc(context.pointee.userData, handler.serror)
        defer { xmlSetStructuredErrorFunc(nil, nil) }
        xmlParseDocument(context)

        if let fatal {
            return .failure(ModelLoadingError(.malformedXML, fatal.message, at: fatal.location))
        }
        guard context.pointee.wellFormed != 0, let root else {
            return .failure(ModelLoadingError(.malformedXML, "the file is not well-formed XML", at: SourceLocation(file: path)))
        }
        return .success(Result(root: root, diagnostics: diagnostics))
    }

    // MARK: SAX events

    fileprivate func startElement(
        prefix: UnsafePointer<xmlChar>?, localName: UnsafePointer<xmlChar>,
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        var name = self.name(localName).name
        if let prefix { name = self.name(prefix).name + ":" + name }
        var parsed: [XMLNode.Attribute] = []
        parsed.reserveCapacity(attributeCount)
        if let attributes {
            // Five pointers per attribute: local name, prefix, URI, value start, value end.
            for index in 0..<attributeCount {
                guard let attributeName = attributes[5 * index],
                      let start = attributes[5 * index + 3], let end = attributes[5 * index + 4]
                else { continue }
                var (key, id) = self.name(attributeName)
                if let attributePrefix = attributes[5 * index + 1] {
                    key = self.name(attributePrefix).name + ":" + key
                    id = -1
                }
                let bytes = UnsafeBufferPointer(start: start, count: end - start)
                var value = String(decoding: bytes, as: UTF8.self)
                // Entities are never substituted (that would load external ones), so libxml2 hands
                // over every `&` of a value — `&amp;`, `&#38;`, `&#x26;` — as `&#38;`, which can
                // stand for nothing else: a bare `&` is not well-formed. Every other reference
                // arrives decoded.
                if bytes.contains(UInt8(ascii: "&")) { value = value.replacingOccurrences(of: "&#38;", with: "&") }
                parsed.append(XMLNode.Attribute(name: key, nameID: id, value: value))
            }
        }
        let (line, column) = startTagPosition()
        stack.append(XMLNode(name: name, attributes: parsed, children: [], line: line, column: column))
    }

    private func name(_ pointer: UnsafePointer<xmlChar>) -> (name: String, id: Int) {
        let key = UnsafeRawPointer(pointer)
        let slot = (Int(bitPattern: key) >> 3) & (names.count - 1)
        if let cached = names[slot], cached.pointer == key { return (cached.name, cached.id) }
        let name = String(cString: pointer)
        let id = XMLNames.id(of: name)
        // Only pointers owned by the parser's dictionary stay valid (and unique) for the whole parse.
        if let context, xmlDictOwns(context.pointee.dict, pointer) == 1 {
            names[slot] = CachedName(pointer: key, name: name, id: id)
        }
        return (name, id)
    }

    fileprivate func append(_ text: UnsafeBufferPointer<xmlChar>) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += String(decoding: text, as: UTF8.self)
    }

    fileprivate func endElement() {
        guard let node = stack.popLast() else { return }
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].children.append(node)
        }
    }

    fileprivate func report(_ error: xmlError) {
        let message = error.message.map { String(cString: $0) } ?? "XML error \(error.code)"
        var location = SourceLocation(file: path, line: Int(max(error.line, 0)), column: Int(max(error.int2, 0)))
        if location.line == 0, let context {  // encoding errors carry no position; the parser knows it
            location.line = Int(xmlSAX2GetLineNumber(context))
            location.column = Int(xmlSAX2GetColumnNumber(context))
        }
        let text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        switch error.level {
        case XML_ERR_WARNING:
            diagnostics.append(.warning(text, at: location))
        case XML_ERR_ERROR:
            diagnostics.append(.error(text, at: location))
        default:
            if fatal == nil { fatal = .error(text, at: location) }
        }
    }

    /// Where the start tag being reported begins.
    private func startTagPosition() -> (line: Int, column: Int) {
        guard let context else { return (0, 0) }
        let consumed = Int(xmlByteConsumed(context))
        var start = min(consumed, bytes.count) - 1
        while start >= 0 && bytes[start] != UInt8(ascii: "<") { start -= 1 }
        guard start >= 0 else { return (Int(xmlSAX2GetLineNumber(context)), 0) }
        return cursor.position(of: start, in: bytes)
    }

    /// The SAX callbacks; built per parse because C structs cannot be shared as Swift 6 globals.
    private static func makeHandler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { userData, localName, prefix, _, _, _, attributeCount, _, attributes in
            guard let userData, let localName else { return }
            XMLTreeReader.from(userData).startElement(
                prefix: prefix, localName: localName, attributeCount: Int(attributeCount), attributes: attributes)
        }
        handler.endElementNs = { userData, _, _, _ in
            guard let userData else { return }
            XMLTreeReader.from(userData).endElement()
        }
        handler.serror = { userData, error in
            guard let userData, let error else { return }
            XMLTreeReader.from(userData).report(error.pointee)
        }
        return handler
    }

    private static func from(_ userData: UnsafeMutableRawPointer) -> XMLTreeReader {
        Unmanaged<XMLTreeReader>.fromOpaque(userData).takeUnretainedValue()
    }
}

/// libxml2 must be initialised once, before any thread parses.
private enum libxml2IsInitialized {
    static let done: Void = xmlInitParser()
    static func touch() { _ = done }
}
