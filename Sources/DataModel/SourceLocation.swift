/// A position in a model file: the file's path and a 1-based line and column.
///
/// Line and column are 0 when unknown (a problem with the file as a whole).
public struct SourceLocation: Sendable, Hashable {
    /// The file, as the user named it (relative paths stay relative so messages match the command line).
    public var file: String
    /// 1-based line, or 0 when the location is the whole file.
    public var line: Int
    /// 1-based column in UTF-8 bytes, or 0 when unknown.
    public var column: Int

    public init(file: String, line: Int = 0, column: Int = 0) {
        self.file = file
        self.line = line
        self.column = column
    }
}

extension SourceLocation: CustomStringConvertible {
    /// `path:line:column`, `path:line` or `path`, the prefix compilers and editors recognise.
    public var description: String {
        switch (line, column) {
        case (0, _): file
        case (_, 0): "\(file):\(line)"
        default: "\(file):\(line):\(column)"
        }
    }
}

extension SourceLocation: Comparable {
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}

extension SourceLocation: Encodable {
    private enum CodingKeys: String, CodingKey { case line, column }

    /// Encodes line and column only: the file is the model's, and dumps must not depend on where it lives.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(line, forKey: .line)
        try container.encode(column, forKey: .column)
    }
}
