import DataModel
import Foundation

/// An attribute as the runtime uses it: type, storage slot, column, default and validation rules.
public struct AttributeDescription: Sendable {
    public let name: String
    /// The index of the value in an object's attribute storage.
    public let slot: Int
    public let type: AttributeType
    public let isOptional: Bool
    public let isTransient: Bool
    /// The value a new object starts with (`null` when the model gives none).
    public internal(set) var defaultValue: AttributeValue
    /// The index of the column in the table's column list; `nil` for transient attributes.
    let columnIndex: Int?
    public let columnName: String?
    /// Inclusive bounds: numbers for numeric types, lengths for strings and binary data, dates for dates.
    public let minimum: AttributeValue?
    public let maximum: AttributeValue?
    public let regularExpression: String?
    /// The entity that declares the attribute.
    public let entityName: String
    /// For a derived attribute, the expression the store computes it from (`chapters.@count`).
    public let derivationExpression: String?
    /// A composite attribute's members, in the composite's order: leaves with a column each, and
    /// nested composites with members of their own. A member's `name` is its key path from the
    /// entity (`shelfSpot.position.x`), its `slot` the entity attribute's.
    public internal(set) var members: [AttributeDescription] = []
    /// A member's names below the entity's attribute (`["position", "x"]`); empty for an attribute.
    public internal(set) var memberPath: [String] = []
    /// A composite's leaf members at every depth, in column order.
    var leaves: [AttributeDescription] = []
    /// Whether a delete keeps the value in its history change, the tombstone
    /// (`preserveAfterDeletion`; stored attributes with a column only).
    public internal(set) var preservesValueInHistoryOnDeletion = false
    /// A transformable attribute's `valueTransformerName` (``ValueTransformers``).
    public internal(set) var valueTransformerName: String?

    /// Whether the store computes the value when saving (it cannot be set).
    public var isDerived: Bool { derivationExpression != nil }

    /// Whether a save has a rule to check: a required value, or rules on the value.
    var hasValidationRules: Bool {
        !isTransient && !isDerived && (!isOptional || hasValueRules)
    }

    /// Whether a present value has rules to check: bounds, a pattern, or members (which have their
    /// own rules).
    var hasValueRules: Bool {
        minimum != nil || maximum != nil || regularExpression != nil || !members.isEmpty
    }
}

extension AttributeValue {
    /// The value converted to an attribute of `type`, as Core Data's key-value coding accepts it
    /// (any integer for an integer attribute, a number for a Boolean, a string for a URI …), or
    /// `nil` when it cannot be.
    func coerced(to type: AttributeType) -> AttributeValue? {
        if case .null = self { return .null }
        switch type {
        case .integer16, .integer32, .integer64: return Int64(attributeValue: self).map(AttributeValue.integer)
        case .double, .float: return Double(attributeValue: self).map(AttributeValue.double)
        case .decimal: return Decimal(attributeValue: self).map(AttributeValue.decimal)
        case .boolean: return Bool(attributeValue: self).map(AttributeValue.bool)
        case .string: return String(attributeValue: self).map(AttributeValue.string)
        case .date: return Date(attributeValue: self).map(AttributeValue.date)
        case .binary, .transformable: return Data(attributeValue: self).map(AttributeValue.data)
        case .uuid: return UUID(attributeValue: self).map(AttributeValue.uuid)
        case .uri: return URL(attributeValue: self).map(AttributeValue.url)
        case .objectID, .composite, .undefined: return self
        }
    }
}

extension AttributeDescription {
    /// `value` converted to this attribute's type, as Core Data's key-value coding accepts it
    /// (any integer for an integer attribute, a number for a Boolean, a string for a URI …), or
    /// `nil` when it cannot be.
    func coerced(_ value: AttributeValue) -> AttributeValue? {
        type == .composite ? coercedComposite(value) : value.coerced(to: type)
    }

    /// Reads a model's default or bound text leniently, as Core Data does: `YES`/`NO` and numbers
    /// for Booleans, the leading number for numbers (else 0).
    static func value(fromModelText text: String?, type: AttributeType) -> AttributeValue {
        guard let text else { return .null }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        func leadingNumber() -> Double {
            let prefix = trimmed.prefix { "+-0123456789.eE".contains($0) }
            return Double(prefix) ?? Double(prefix.prefix { "+-0123456789".contains($0) }) ?? 0
        }
        switch type {
        case .integer16, .integer32, .integer64:
            if let value = Int64(trimmed) { return .integer(value) }
            if trimmed.uppercased() == "YES" { return .integer(1) }
            return .integer(Int64(clamping: Int64(exactly: leadingNumber().rounded(.towardZero)) ?? 0))
        case .double, .float: return .double(leadingNumber())
        case .decimal: return .decimal(Decimal(string: trimmed) ?? Decimal(leadingNumber()))
        case .boolean: return .bool(["YES", "TRUE", "1"].contains(trimmed.uppercased()) || (Int(trimmed) ?? 0) != 0)
        case .string: return .string(text)
        case .uuid: return UUID(uuidString: trimmed).map(AttributeValue.uuid) ?? .null
        case .uri: return URL(string: trimmed).map(AttributeValue.url) ?? .null
        case .date: return Double(trimmed).map { .date(Date(timeIntervalSinceReferenceDate: $0)) } ?? .null
        case .binary, .transformable, .objectID, .composite, .undefined: return .null
        }
    }
}
