import DataModel

/// The Swift type of an attribute's property, and how the runtime stores it.
struct SwiftType: Equatable {
    enum Storage: Equatable {
        /// Through `AttributeKey`: the type is `AttributeStorable`.
        case attribute
        /// Through `TransformableKey`: the type is `Codable`, stored as a property list.
        case transformable
    }

    /// The non-optional type (`Double`, `[String: String]`, `Genre`).
    var name: String
    var storage: Storage

    /// userInfo keys naming the Swift type of an attribute, ours first, then SwiftGen's and mogenerator's.
    static let userInfoKeys = ["datamodel.type", "enumType", "RawType", "attributeValueScalarType", "attributeValueClassName"]

    /// Objective-C and C names older models give in userInfo, and their Swift types.
    static let objectiveCNames: [String: String] = [
        "NSInteger": "Int", "NSUInteger": "UInt", "BOOL": "Bool", "int16_t": "Int16", "int32_t": "Int32",
        "int64_t": "Int64", "int": "Int32", "float": "Float", "double": "Double", "NSString": "String",
        "NSDate": "Date", "NSData": "Data", "NSUUID": "UUID", "NSURL": "URL", "NSDecimalNumber": "Decimal",
    ]

    /// Types a transformable's `customClassName` may name and still be `Codable` as they are.
    static let codableNames: Set<String> = [
        "String", "Int", "Int16", "Int32", "Int64", "UInt", "Double", "Float", "Bool", "Date", "Data", "URL",
        "UUID", "Decimal",
    ]

    /// The Swift type of `type` without userInfo: nil for types with no property (composite,
    /// object ID, undefined).
    static func standard(for type: AttributeType) -> String? {
        switch type {
        case .integer16: "Int16"
        case .integer32: "Int32"
        case .integer64: "Int64"
        case .decimal: "Decimal"
        case .double: "Double"
        case .float: "Float"
        case .string: "String"
        case .boolean: "Bool"
        case .date: "Date"
        case .binary: "Data"
        case .uuid: "UUID"
        case .uri: "URL"
        case .transformable: "Data"
        case .objectID, .composite, .undefined: nil
        }
    }

    /// Whether `name` is built only of Codable standard types: `[String]`, `[String: [Int64]]`.
    static func isCodableComposition(_ name: String) -> Bool {
        let words = name.split(whereSeparator: { "[]:? ".contains($0) })
        return !words.isEmpty && words.allSatisfy { codableNames.contains(String($0)) }
    }

    /// The type userInfo names for `attribute`, if any (Objective-C names translated), with the key
    /// that names it.
    static func userType(of attribute: Attribute) -> (name: String, key: String)? {
        for key in userInfoKeys {
            if let value = attribute.userInfo[key].map({ String($0.trimmingSpaces) }), !value.isEmpty {
                return (objectiveCNames[value] ?? value, key)
            }
        }
        return nil
    }

    /// Whether `name` reads as a Swift type: identifiers joined by `.`, in `[…]`, `[…: …]`, `<…>`,
    /// optionally `?`. Objective-C spellings (`NSColor *`) are not.
    static func isValidSwiftTypeName(_ name: String) -> Bool {
        guard let first = name.first, first.isLetter || first == "_" || first == "[" else { return false }
        return name.allSatisfy { $0.isLetter || $0.isNumber || "_.[]:<>,? ".contains($0) }
    }

    /// Whether a stored value can have the type `name`: not `Any`, not a keyword, and not an Apple
    /// framework class (`NSColor`, `UIImage`), which is neither storable nor `Codable` here.
    static func canHoldValues(_ name: String) -> Bool {
        if name == "Any" || name == "AnyObject" || ReservedNames.swiftKeywords.contains(name) { return false }
        let prefix = name.prefix(3)
        return !(["NS", "UI", "CG", "CI"].contains(String(prefix.prefix(2))) && prefix.last?.isUppercase == true)
    }

    /// The model's default of a required attribute as a Swift literal of `typeName` (numbers,
    /// Booleans, strings), or nil when it has none or none can be written.
    static func defaultLiteral(of attribute: Attribute, typeName: String) -> String? {
        guard let text = attribute.defaultValue.map({ String($0.trimmingSpaces) }), typeName == standard(for: attribute.type) else { return nil }
        switch attribute.type {
        case .integer16, .integer32, .integer64: return Int64(text).map { "\($0)" }
        case .double, .float: return Double(text).flatMap { $0.isFinite ? doubleLiteral($0) : nil }
        case .boolean: return ["YES", "TRUE", "1"].contains(text.uppercased()) ? "true" : ["NO", "FALSE", "0"].contains(text.uppercased()) ? "false" : nil
        case .string: return swiftStringLiteral(attribute.defaultValue ?? "")
        default: return nil
        }
    }
}
