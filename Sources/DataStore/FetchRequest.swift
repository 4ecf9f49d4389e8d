/// What to fetch: objects of an entity (and, by default, its subentities), in store order, with
/// an optional limit and offset. Typed: a request for `Book` returns `[Book]`.
///
///     let books = try context.fetch(FetchRequest<Book>())
public struct FetchRequest<Result: ManagedObject>: Sendable {
    public var entityName: String
    /// Whether objects of subentities are included (default `true`).
    public var includesSubentities = true
    /// At most this many objects; 0 for no limit.
    public var fetchLimit = 0
    /// Skip this many objects first.
    public var fetchOffset = 0

    /// A request for the entity of `Result` (`Book.entityName`).
    public init() {
        entityName = Result.entityName
    }

    /// A request for the entity named `entityName`, whose objects are of class `Result`.
    public init(entityName: String) {
        self.entityName = entityName
    }
}
