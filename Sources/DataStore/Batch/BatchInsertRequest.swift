/// Inserts many objects of one entity in one transaction, as SQL, without keeping objects in any
/// context: Core Data's `NSBatchInsertRequest`.
///
/// Each object is validated as a save validates it (required attributes, ranges, patterns,
/// uniqueness constraints) — which Core Data's batch inserts skip — and nothing is written unless
/// every one passes. Relationships are not set, as in Core Data: connect the objects afterwards.
///
/// Under a merge policy other than `error` (the executing context's `mergePolicy`), a row that
/// clashes on a uniqueness constraint with a stored object — or with a row the request inserted
/// before it — is merged into that object instead (the upsert): object trump writes the row's
/// values other than `nil`, overwrite all of them, store trump fills only the stored `nil`s, and
/// rollback leaves the stored object as it is. The result's IDs then include the objects merged into.
///
///     // From dictionaries, as Core Data's `init(entityName:objects:)`:
///     let request = BatchInsertRequest<Book>(objects: [["title": "Emma", "price": 12.5]])
///     // Or filling one generated object at a time, which is reused from row to row:
///     let request = BatchInsertRequest<Book>(count: 100_000) { book, index in
///         book.title = "Volume \(index)"
///     }
///     let result = try context.execute(request)   // result.count, result.objectIDs
public struct BatchInsertRequest<Object: ManagedObject> {
    public var entityName: String

    enum Source {
        case dictionaries([[String: any Sendable]])
        /// Fills the object for the row at the index; `true` when there are no more rows.
        case handler((Object, Int) -> Bool)
    }

    let source: Source

    /// Inserts one object per dictionary of attribute values by name (values of any type key-value
    /// coding accepts; a missing key leaves the model's default value).
    public init(entityName: String = Object.entityName, objects: [[String: any Sendable]]) {
        self.entityName = entityName
        source = .dictionaries(objects)
    }

    /// Inserts `count` objects, each filled by `fill` with its index: one object of the entity's
    /// class is set to the default values and handed to `fill` for every row.
    public init(entityName: String = Object.entityName, count: Int, fill: @escaping (Object, Int) -> Void) {
        self.entityName = entityName
        source = .handler { object, index in
            guard index < count else { return true }
            fill(object, index)
            return false
        }
    }

    /// Inserts objects until `managedObjectHandler` returns `true`, as Core Data's
    /// `init(entity:managedObjectHandler:)`: it fills the object it is handed, or returns `true`
    /// (and that object is not inserted) when there are no more.
    public init(entityName: String = Object.entityName, managedObjectHandler: @escaping (Object) -> Bool) {
        self.entityName = entityName
        source = .handler { object, _ in managedObjectHandler(object) }
    }
}
