/// Sets attributes of every object that matches a predicate, in one SQL statement, without
/// loading objects: Core Data's `NSBatchUpdateRequest`.
///
/// New values are constants or expressions of each object's own attributes. Each changed row's
/// `Z_OPT` moves on, so a context holding an unsaved change to one sees a conflict when saving,
/// and the new values are validated as a save validates them, before the transaction commits.
///
///     var request = BatchUpdateRequest<Book>(predicate: try ObjectPredicate(format: "price < 10"))
///     request.propertiesToUpdate = [
///         "price": .expression(try ObjectExpression(format: "price * 1.1")),
///         "isOnSale": .value(.bool(true)),
///     ]
///     let result = try context.execute(request)   // result.count, result.objectIDs
public struct BatchUpdateRequest<Object: ManagedObject>: Sendable {
    public var entityName: String
    /// Which objects change; `nil` for all.
    public var predicate: ObjectPredicate?
    /// The new value of each attribute, by name.
    public var propertiesToUpdate: [String: BatchUpdateValue]
    /// Whether objects of subentities change too (default `true`).
    public var includesSubentities = true

    public init(entityName: String = Object.entityName, predicate: ObjectPredicate? = nil, propertiesToUpdate: [String: BatchUpdateValue] = [:]) {
        self.entityName = entityName
        self.predicate = predicate
        self.propertiesToUpdate = propertiesToUpdate
    }
}

/// The new value of an attribute in a ``BatchUpdateRequest``.
public enum BatchUpdateValue: Sendable, Hashable {
    /// The same value for every object (converted to the attribute's type, as key-value coding
    /// converts it).
    case value(AttributeValue)
    /// A value computed from each object's own attributes, such as `price * 1.1`: numeric
    /// attributes only.
    case expression(ObjectExpression)
}
