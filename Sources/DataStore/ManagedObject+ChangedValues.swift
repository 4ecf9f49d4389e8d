import Foundation

/// What changed in an object and what it held before, by Core Data's names. Values are those of
/// `value(forKey:)`, with `NSNull()` for none, as Core Data gives them.
extension ManagedObject {
    /// The properties changed since the object was last read or saved, with their current
    /// values; for an inserted object, every property that has a value. Empty outside a context.
    public func changedValues() -> [String: Any] {
        guard let context else { return [:] }
        var values: [String: Any] = [:]
        if isInserted {
            for attribute in entity.attributes where attributeValue(atSlot: attribute.slot) != .null {
                values[attribute.name] = value(forKey: attribute.name)
            }
            for relationship in entity.relationships {
                let value = value(forKey: relationship.name)
                let isEmpty = value == nil || (value as? Set<ManagedObject>)?.isEmpty == true || (value as? [ManagedObject])?.isEmpty == true
                if !isEmpty { values[relationship.name] = value }
            }
            return values
        }
        guard isLoaded else { return [:] }
        for key in context.changedKeys(of: self) { values[key] = value(forKey: key) ?? NSNull() }
        return values
    }

    /// The values of `keys` (every property for `nil`) as last read from or saved to the store,
    /// whatever changed since: what a save would overwrite. An inserted object has none.
    public func committedValues(forKeys keys: [String]?) -> [String: Any] {
        guard let context, !isInserted else { return [:] }
        fulfillIfNeeded()
        let names = keys ?? entity.attributes.map(\.name) + entity.relationships.map(\.name)
        var values: [String: Any] = [:]
        for name in names {
            if let attribute = entity.attribute(named: name) {
                values[name] = savedAttributeValue(atSlot: attribute.slot).anyValue ?? NSNull()
            } else if let relationship = entity.relationship(named: name) {
                switch savedRelationshipValues[relationship.slot] {
                case .toOne(let id): values[name] = id.map(context.object(with:)) ?? NSNull()
                case .toMany(let list):
                    let objects = list.ids.map(context.object(with:))
                    values[name] = relationship.isOrdered ? objects : Set(objects)
                case .unloaded:
                    // Not loaded, so unchanged: the store's destinations are the current ones.
                    values[name] = value(forKey: name) ?? NSNull()
                }
            }
        }
        return values
    }
}
