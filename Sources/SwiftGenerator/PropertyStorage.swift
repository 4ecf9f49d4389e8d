import DataModel

/// The stored property a generated class keeps an attribute's value in: the payload type of the
/// attribute type's `AttributeValue` case, optional for a missing value, and the `StoreRow` read
/// that fills it from a row. Types without a case of their own keep the `AttributeValue` itself.
struct PropertyStorage {
    /// `Double?`, `Int64?`, `AttributeValue?`.
    var type: String
    /// `double`, `integer`, `value`.
    var read: String

    init(_ attributeType: AttributeType) {
        switch attributeType {
        case .integer16, .integer32, .integer64: (type, read) = ("Int64?", "integer")
        case .double, .float: (type, read) = ("Double?", "double")
        case .decimal: (type, read) = ("Decimal?", "decimal")
        case .boolean: (type, read) = ("Bool?", "bool")
        case .string: (type, read) = ("String?", "string")
        case .date: (type, read) = ("Date?", "date")
        case .binary, .transformable: (type, read) = ("Data?", "data")
        case .uuid: (type, read) = ("UUID?", "uuid")
        case .uri: (type, read) = ("URL?", "url")
        case .objectID, .composite, .undefined: (type, read) = ("AttributeValue?", "value")
        }
    }
}
