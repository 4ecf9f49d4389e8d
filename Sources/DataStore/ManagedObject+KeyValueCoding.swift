import Foundation

/// Key-value coding, for code without generated classes: every attribute and relationship of any
/// model loaded at run time, by name.
extension ManagedObject {
    /// The value of the property `key`: an attribute's value (`Int64`, `Double`, `Decimal`, `Bool`,
    /// `String`, `Date`, `Data`, `UUID`, `URL`, a composite's `[String: Any]`) or `nil`; a to-one's
    /// object or `nil`; a to-many's `Set<ManagedObject>`, or `[ManagedObject]` when ordered. `nil`
    /// for an unknown key.
    public func value(forKey key: String) -> Any? {
        if let attribute = entity.attribute(named: key) {
            return attributeValue(atSlot: attribute.slot).anyValue
        }
        guard let relationship = entity.relationship(named: key) else { return nil }
        if relationship.isToOne { return destination(atSlot: relationship.slot) }
        let objects = destinations(atSlot: relationship.slot)
        return relationship.isOrdered ? objects : Set(objects)
    }

    /// The typed value of the attribute `key`.
    public func attributeValue(forKey key: String) throws(ContextError) -> AttributeValue {
        guard let attribute = entity.attribute(named: key) else { throw .unknownKey(entity: entity.name, key: key) }
        return attributeValue(atSlot: attribute.slot)
    }

    /// Sets the attribute `key` to `value`, converted to the attribute's type as Core Data does
    /// (any integer for an integer attribute, a string for a URI …).
    public func setAttributeValue(_ value: AttributeValue, forKey key: String) throws(ContextError) {
        guard let attribute = entity.attribute(named: key) else { throw .unknownKey(entity: entity.name, key: key) }
        guard !attribute.isDerived else { throw .derivedKey(entity: entity.name, key: key) }
        guard let coerced = attribute.coerced(value) else {
            throw .invalidValue(entity: entity.name, key: key, value: "\(value)")
        }
        setAttributeValue(coerced, atSlot: attribute.slot)
    }

    /// Sets the property `key`: an attribute from a Swift value of a compatible type (a composite
    /// from a `[String: Any]` of its members; `nil` or `NSNull` for no value), a to-one from a
    /// `ManagedObject` or `nil`, a to-many from a sequence of `ManagedObject`s. Throws — never
    /// traps — for an unknown key or a value the property cannot hold.
    public func setValue(_ value: Any?, forKey key: String) throws(ContextError) {
        if entity.attribute(named: key) != nil {
            guard let attributeValue = Self.attributeValue(from: value) else {
                throw .invalidValue(entity: entity.name, key: key, value: "\(value.map { "\($0)" } ?? "nil")")
            }
            try setAttributeValue(attributeValue, forKey: key)
            return
        }
        guard let relationship = entity.relationship(named: key) else { throw .unknownKey(entity: entity.name, key: key) }
        if relationship.isToOne {
            guard value == nil || value is ManagedObject else {
                throw .invalidValue(entity: entity.name, key: key, value: "\(value.map { "\($0)" } ?? "nil")")
            }
            setDestination(value as? ManagedObject, atSlot: relationship.slot)
        } else {
            let objects: [ManagedObject]
            switch value {
            case nil: objects = []
            case let array as [ManagedObject]: objects = array
            case let set as Set<ManagedObject>: objects = Array(set)
            default: throw .invalidValue(entity: entity.name, key: key, value: "\(value.map { "\($0)" } ?? "nil")")
            }
            setDestinations(objects, atSlot: relationship.slot)
        }
    }

    private static func attributeValue(from value: Any?) -> AttributeValue? {
        switch value {
        case nil, is NSNull: .null
        case let value as AttributeValue: value
        case let value as Bool: .bool(value)
        case let value as Int: .integer(Int64(value))
        case let value as Int16: .integer(Int64(value))
        case let value as Int32: .integer(Int64(value))
        case let value as Int64: .integer(value)
        case let value as Double: .double(value)
        case let value as Float: .double(Double(value))
        case let value as Decimal: .decimal(value)
        case let value as String: .string(value)
        case let value as Date: .date(value)
        case let value as Data: .data(value)
        case let value as UUID: .uuid(value)
        case let value as URL: .url(value)
        case let members as [String: Any]: compositeValue(from: members)
        default: nil
        }
    }

    /// A composite's members; a member no attribute can hold makes the whole value invalid.
    private static func compositeValue(from members: [String: Any]) -> AttributeValue? {
        var values: [String: AttributeValue] = [:]
        for (name, member) in members {
            guard let value = attributeValue(from: member) else { return nil }
            values[name] = value
        }
        return .composite(values)
    }
}
