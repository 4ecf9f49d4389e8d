@_exported import PredicateLanguage

/// The language's, not Foundation's (`#Predicate`'s protocol of the same name).
typealias PredicateExpression = PredicateLanguage.PredicateExpression

/// Objects and their IDs in predicates: an ID is the identity a predicate holds, and an object a
/// substitution variable whose key paths are read as it substitutes (`$FETCH_SOURCE.author`).
extension ObjectID: PredicateObjectIdentity, PredicateArgument {
    public var predicateValue: PredicateValue { .object(self) }
}

extension PredicateValue {
    /// The object whose ID is `id`, compared by identity with to-one relationships and `SELF`.
    public static func object(_ id: ObjectID) -> PredicateValue {
        .object(PredicateObject(id))
    }
}

extension PredicateObject {
    /// The ID this object is, or nil for an identity of another kind than the store's.
    var objectID: ObjectID? { identity as? ObjectID }
}

extension ManagedObject: PredicateKeyPathReading {
    public var predicateValue: PredicateValue { .object(objectID) }

    /// The value at `path` (attributes and to-one relationships) read from the object as it is now,
    /// or nil when the path does not lead to one.
    public func predicateValue(atKeyPath path: [String]) -> PredicateValue? {
        var object = self
        for (offset, key) in path.enumerated() {
            let isLast = offset == path.count - 1
            if isLast, let value = try? object.attributeValue(forKey: key) { return .attribute(value) }
            guard let relationship = object.entity.relationship(named: key), !relationship.isToMany else { return nil }
            guard let next = object.value(forKey: key) as? ManagedObject else { return .null }
            if isLast { return .object(next.objectID) }
            object = next
        }
        return .object(object.objectID)
    }
}
