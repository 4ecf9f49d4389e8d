/// One output file: a name relative to the output directory, and its contents.
public struct GeneratedFile: Sendable, Equatable {
    public var name: String
    public var contents: String

    public init(name: String, contents: String) {
        self.name = name
        self.contents = contents
    }
}
