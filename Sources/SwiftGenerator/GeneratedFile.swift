/// One output file: a name relative to the output directory, and its contents.
public struct GeneratedFile: Sendable, Equatable {
    public var name: String
    public var contents: String

    public init(name: String, contents: String) {
        self.name = name
        self.contents = contents
    }

    /// A file of rendered parts (header, body, …): each trimmed of leading and trailing newlines,
    /// empty ones left out, separated by one blank line, ending with one newline.
    public init(name: String, joining parts: [String]) {
        let contents = parts.map { part in
            // Trimmed by hand: Foundation's `trimmingCharacters` bridges through NSString, slowly.
            var text = Substring(part)
            while text.first?.isNewline == true { text.removeFirst() }
            while text.last?.isNewline == true { text.removeLast() }
            return text
        }.filter { !$0.isEmpty }.joined(separator: "\n\n") + "\n"
        self.init(name: name, contents: contents)
    }
}
