import GRDB

/// A predicate checked against an entity: key paths resolved to properties, constants converted to
/// the stored form of what they are compared with. The SQL compiler and the in-memory evaluator
/// both work from this one form, which is why they agree.
indirect enum ResolvedPredicate {
    case constant(Bool)
    case not(ResolvedPredicate)
    case and([ResolvedPredicate])
    case or([ResolvedPredicate])
    case compare(ResolvedExpression, ComparisonOperator, ResolvedExpression, StringOptions)
    /// `ANY`/`ALL`/`NONE`: `predicate` holds for some, every or no element of `collection`; the
    /// element is scope `collection.elementScope` inside `predicate`.
    case quantified(Quantifier, ResolvedCollection, ResolvedPredicate)
}

/// A side of a resolved comparison.
indirect enum ResolvedExpression {
    /// A constant in the store's form (dates as reference-date seconds, UUIDs as 16 bytes, …).
    case value(DatabaseValue)
    /// An object constant, or `nil`.
    case objectValue(ObjectID?)
    /// The constants of `IN` and `BETWEEN`.
    case list([ResolvedExpression])
    /// An attribute at the end of a key path.
    case attribute(ResolvedPath, AttributeDescription)
    /// The object at the end of a key path: `SELF`, a variable, or a to-one relationship.
    case object(ResolvedPath)
    /// `@count`, `@sum.key`, … of a to-many; `value` is read from each element (its scope).
    case aggregate(AggregateFunction, ResolvedCollection, value: (ResolvedPath, AttributeDescription)?)
    /// `SUBQUERY(collection, $x, predicate).@count`.
    case subqueryCount(ResolvedCollection, ResolvedPredicate)
}

enum AggregateFunction: String {
    case count = "@count", sum = "@sum", average = "@avg", minimum = "@min", maximum = "@max"
}

/// A key path through to-one relationships from an object in scope: the fetched object is scope 0,
/// each quantifier or `SUBQUERY` element the next.
struct ResolvedPath {
    var scope: Int
    /// The entity of the object in scope.
    var start: EntityDescription
    /// The to-one relationships followed, each with its destination entity.
    var toOnes: [(relationship: RelationshipDescription, destination: EntityDescription)] = []

    /// The entity at the end of the path.
    var end: EntityDescription { toOnes.last?.destination ?? start }
}

/// The destinations of a to-many relationship of the object at the end of `owner`.
struct ResolvedCollection {
    var owner: ResolvedPath
    var relationship: RelationshipDescription
    var destination: EntityDescription
    /// The scope of an element inside the quantified predicate or aggregate.
    var elementScope: Int
}
