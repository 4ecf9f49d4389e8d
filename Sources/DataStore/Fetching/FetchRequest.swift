/// What to fetch: objects of an entity (and, by default, its subentities) that match a predicate,
/// in the order of sort descriptors, with an optional offset, limit and batch size. Typed: a
/// request for `Book` returns `[Book]`.
///
///     var request = FetchRequest<Book>()
///     request.predicate = try ObjectPredicate(format: "price < %@", 20)
///     request.sortDescriptors = [ObjectSortDescriptor("title")]
///     let books = try context.fetch(request)
///
/// Core Data's `resultType` is the method you call:
///
/// | `NSFetchRequest.resultType` | ``ObjectContext`` method |
/// |---|---|
/// | `.managedObjectResultType` | `fetch(_:)` → `[Object]`; `fetchBatched(_:)` loads them in batches |
/// | `.managedObjectIDResultType` | `fetchObjectIDs(_:)` → `[ObjectID]` |
/// | `.countResultType` | `count(for:)` → `Int` |
/// | `.dictionaryResultType` | `fetchDictionaries(_:)` → `[[String: PredicateValue]]` (typed reading: `row.string("name")`, `row["total", as: Double.self]`), or `fetchDictionaries(_:as:)` → `[Row]` for a `Decodable` row type |
public struct FetchRequest<Object: ManagedObject>: Sendable {
    public var entityName: String
    /// Which objects match; `nil` for all.
    public var predicate: ObjectPredicate?
    /// The order, first descriptor first; objects equal under all of them come in store order.
    public var sortDescriptors: [ObjectSortDescriptor] = []
    /// At most this many objects; 0 for no limit.
    public var fetchLimit = 0
    /// Skip this many objects first.
    public var fetchOffset = 0
    /// The number of rows read at a time after the keys: `fetchBatched` reads each batch when it
    /// is first touched, `fetch` reads them all (0: one query for everything).
    public var fetchBatchSize = 0
    /// Whether objects of subentities are included (default `true`).
    public var includesSubentities = true
    /// Whether the context's unsaved inserts, changes and deletes count (default `true`): an
    /// unsaved object matches by its current values, a deleted one never.
    public var includesPendingChanges = true
    /// Whether fetched objects come back as faults (default `true`, as in Core Data). Their values
    /// come with the fetch either way; an object fetched as a fault reports `isFault` until first
    /// used, and using it reads nothing more from the store. Objects already in the context are
    /// returned as they are.
    public var returnsObjectsAsFaults = true
    /// Whether the fetch reads the objects' values (default `true`). `false` reads only their keys:
    /// objects not in the context yet come back as faults that read their row when first used —
    /// for objects that are only counted, compared or deleted. When unsaved changes must be judged
    /// in memory, the rows are read anyway.
    public var includesPropertyValues = true
    /// What `fetchDictionaries` returns of each object or group: key paths and aggregates (empty:
    /// every attribute). Object fetches read whole rows whatever it says.
    public var propertiesToFetch: [PropertyToFetch] = []
    /// Key paths (attributes or to-one relationships) whose equal values make one group, for
    /// `fetchDictionaries`: one dictionary per group, aggregates computed per group. Every
    /// non-aggregate property to fetch must be one of them.
    public var propertiesToGroupBy: [String] = []
    /// Relationship key paths (`author`, `chapters`, `author.books`) whose destinations are read
    /// with the fetch — one query per step per 500 objects — so that using them reads nothing more.
    /// Batched fetches prefetch for each batch as it loads.
    public var relationshipKeyPathsForPrefetching: [String] = []
    /// Whether `fetchDictionaries` returns each distinct dictionary once (default `false`).
    public var returnsDistinctResults = false

    /// A request for the entity of `Object` (`Book.entityName`).
    public init() {
        entityName = Object.entityName
    }

    /// A request for the entity named `entityName`, whose objects are of class `Object`, with an
    /// optional predicate and sort descriptors.
    public init(entityName: String, predicate: ObjectPredicate? = nil, sortDescriptors: [ObjectSortDescriptor] = []) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
    }

    /// A request for the entity of `Object` with a predicate and sort descriptors.
    public init(predicate: ObjectPredicate?, sortDescriptors: [ObjectSortDescriptor] = []) {
        self.init()
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
    }
}

/// A class whose objects can be fetched by type; every `ManagedObject` subclass is one.
public protocol Fetchable: AnyObject {}

extension ManagedObject: Fetchable {}

extension Fetchable where Self: ManagedObject {
    /// A request for the objects of this class's entity, subentities included:
    /// `Book.fetchRequest()` is a `FetchRequest<Book>`.
    public static func fetchRequest() -> FetchRequest<Self> {
        FetchRequest<Self>()
    }
}
