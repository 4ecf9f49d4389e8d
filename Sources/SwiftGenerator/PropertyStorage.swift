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

extension PropertyStorage {
    /// The direct access of a property of the standard Swift type `typeName` (optional or not) to
    /// this storage, named `storageName`: when the types are the same, or an integer or `Float`
    /// the payload converts to as typed access converts it. `nil` for any other type.
    func directAccess(storageName: String, typeName: String, isOptional: Bool) -> DirectAccessContext? {
        let payload = String(type.dropLast())
        let read: String, conversion: String?
        switch (payload, typeName) {
        case _ where payload == typeName:
            (read, conversion) = (storageName, nil)
        case ("Int64", "Int16"), ("Int64", "Int32"):
            read = "\(storageName).map { \(typeName)(truncatingIfNeeded: $0) }"
            conversion = isOptional ? "newValue.map { Int64($0) }" : "Int64(newValue)"
        case ("Double", "Float"):
            read = "\(storageName).map { Float($0) }"
            conversion = isOptional ? "newValue.map { Double($0) }" : "Double(newValue)"
        default:
            return nil
        }
        return DirectAccessContext(
            storageName: storageName, read: isOptional ? read : "\(read) ?? \(typeName).unsetValue",
            conversion: conversion, written: conversion == nil ? "newValue" : "stored")
    }
}
