import DataModel

/// The stored property a generated class keeps an attribute's value in: the payload type of the
/// attribute type's `AttributeValue` case (`StoredPropertyValue`), optional for a missing value.
/// Types without a case of their own keep the `AttributeValue` itself.
struct PropertyStorage {
    /// `Double`, `Int64`, `AttributeValue`.
    var payload: String

    init(_ attributeType: AttributeType) {
        payload = switch attributeType {
        case .integer16, .integer32, .integer64: "Int64"
        case .double, .float: "Double"
        case .decimal: "Decimal"
        case .boolean: "Bool"
        case .string: "String"
        case .date: "Date"
        case .binary, .transformable: "Data"
        case .uuid: "UUID"
        case .uri: "URL"
        case .objectID, .composite, .undefined: "AttributeValue"
        }
    }

    /// The stored property's type, with the first value a non-optional one needs:
    /// `CompactOptional<Double> = nil` for the 8-byte payloads, which it keeps in their own width
    /// (an `Optional` of one is 9 bytes, 16 aligned), else `String?`. Templates that declare
    /// `private var _price: {{storageType}}` keep compiling.
    var type: String { Self.compactPayloads.contains(payload) ? "CompactOptional<\(payload)> = nil" : payload + "?" }

    private static let compactPayloads: Set<String> = ["Int64", "Double", "Date"]

    /// Whether a property of the standard Swift type `typeName` reads and writes this storage
    /// directly: when the type is `PropertyStorable` with this payload as its `Stored` type.
    func isDirect(for typeName: String) -> Bool {
        Self.storedPayloads[typeName] == payload
    }

    /// The `PropertyStorable` types of the runtime and their `Stored` types.
    private static let storedPayloads: [String: String] = [
        "Int": "Int64", "Int16": "Int64", "Int32": "Int64", "Int64": "Int64", "Double": "Double", "Float": "Double",
        "Decimal": "Decimal", "Bool": "Bool", "String": "String", "Date": "Date", "Data": "Data", "UUID": "UUID",
        "URL": "URL",
    ]
}
