import DataModel

/// The declared SQLite type of a column, spelled as Core Data spells it in its DDL.
public enum ColumnType: String, Sendable, Hashable, Codable {
    case integer = "INTEGER"
    case float = "FLOAT"
    case timestamp = "TIMESTAMP"
    case decimal = "DECIMAL"
    case varchar = "VARCHAR"
    case blob = "BLOB"

    /// The column type Core Data declares for an attribute type (§2.3 of the format reference).
    /// `nil` for types that are never stored (`Undefined`, `Composite` itself).
    public init?(_ type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64, .boolean, .objectID: self = .integer
        case .double, .float: self = .float
        case .date: self = .timestamp
        case .decimal: self = .decimal
        case .string, .uri: self = .varchar
        case .uuid, .binary, .transformable: self = .blob
        case .composite, .undefined: return nil
        }
    }
}

/// The position group a column falls in; Core Data orders a table's columns by group, then by
/// entity number, then by name (§2.2).
enum ColumnGroup: Int, Comparable {
    case integerLike, realLike, decimal, string, identifier, blob

    init(_ type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64, .boolean, .objectID, .undefined, .composite: self = .integerLike
        case .date, .double, .float: self = .realLike
        case .decimal: self = .decimal
        case .string: self = .string
        case .uuid, .uri: self = .identifier
        case .binary, .transformable: self = .blob
        }
    }

    static func < (lhs: ColumnGroup, rhs: ColumnGroup) -> Bool { lhs.rawValue < rhs.rawValue }
}
