/// The type of an attribute: the `attributeType` strings of the XML and Core Data's `NSAttributeType` codes.
public enum AttributeType: String, Sendable, Equatable, CaseIterable, Encodable {
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case decimal = "Decimal"
    case double = "Double"
    case float = "Float"
    case string = "String"
    case boolean = "Boolean"
    case date = "Date"
    case binary = "Binary"
    case uuid = "UUID"
    case uri = "URI"
    case transformable = "Transformable"
    case objectID = "ObjectID"
    case composite = "Composite"
    /// No `attributeType` in the XML; allowed for transient attributes only.
    case undefined = "Undefined"

    /// Core Data's `NSAttributeType` raw value, which also enters the model version hash.
    public var code: Int32 {
        switch self {
        case .undefined: 0
        case .integer16: 100
        case .integer32: 200
        case .integer64: 300
        case .decimal: 400
        case .double: 500
        case .float: 600
        case .string: 700
        case .boolean: 800
        case .date: 900
        case .binary: 1000
        case .uuid: 1100
        case .uri: 1200
        case .transformable: 1800
        case .objectID: 2000
        case .composite: 2100
        }
    }

    /// Integer types.
    public var isInteger: Bool { self == .integer16 || self == .integer32 || self == .integer64 }

    /// Types whose values are numbers (integers, floating point, decimal).
    public var isNumeric: Bool { isInteger || self == .decimal || self == .double || self == .float }
}
