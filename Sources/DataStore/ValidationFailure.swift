/// One broken rule of the model, found when saving.
public enum ValidationFailure: Equatable, Sendable, CustomStringConvertible {
    /// A required attribute or to-one relationship has no value.
    case missingValue(ObjectID, property: String)
    /// A number, date or length is below the attribute's minimum or above its maximum.
    case outOfRange(ObjectID, property: String, value: String, bound: String)
    /// A string does not match the attribute's regular expression.
    case patternMismatch(ObjectID, property: String, value: String)
    /// A to-many relationship has fewer or more destinations than the model allows.
    case countOutOfRange(ObjectID, property: String, count: Int)
    /// A deleted object still has destinations through a relationship with the Deny rule.
    case deleteDenied(ObjectID, relationship: String)
    /// Another object already has the values of a uniqueness constraint.
    case uniquenessViolated(ObjectID, constraint: [String], conflictingObject: ObjectID)
    /// Generated code named a property the entity does not have (stale generated code).
    case unknownProperty(entity: String, property: String)
    /// A Transformable value could not be encoded; the attribute kept its previous value.
    case unencodableValue(entity: String, property: String, reason: String)
    /// A derived attribute was set; it kept the value the store computed.
    case derivedValueSet(ObjectID, property: String)
    /// A value the store's engine cannot hold as it is, such as text with U+0000 where text columns cannot hold it.
    case unstorableValue(ObjectID, property: String, reason: String)
    /// A relationship leads to an object another store of the coordinator holds: no store can
    /// hold it (Core Data's 133010, "cross-store relationships").
    case crossStoreRelationship(ObjectID, relationship: String, destination: ObjectID)

    public var description: String {
        switch self {
        case .missingValue(let id, let property): "\(id): '\(property)' is required"
        case .outOfRange(let id, let property, let value, let bound): "\(id): '\(property)' = \(value) is beyond \(bound)"
        case .patternMismatch(let id, let property, let value): "\(id): '\(property)' = \(value) does not match its pattern"
        case .countOutOfRange(let id, let property, let count): "\(id): '\(property)' has \(count) objects, outside its bounds"
        case .deleteDenied(let id, let relationship): "\(id) cannot be deleted: '\(relationship)' is not empty (Deny)"
        case .uniquenessViolated(let id, let constraint, let other):
            "\(id): (\(constraint.joined(separator: ", "))) is not unique; \(other) has the same values"
        case .unknownProperty(let entity, let property): "entity '\(entity)' has no property '\(property)'"
        case .unencodableValue(let entity, let property, let reason): "'\(property)' of entity '\(entity)' could not be encoded: \(reason)"
        case .derivedValueSet(let id, let property): "\(id): '\(property)' is derived; the store computes it when saving"
        case .unstorableValue(let id, let property, let reason): "\(id): '\(property)' cannot be stored: \(reason)"
        case .crossStoreRelationship(let id, let relationship, let destination):
            "\(id): '\(relationship)' leads to \(destination), which another store holds; a relationship stays within one store"
        }
    }
}
