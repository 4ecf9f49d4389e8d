/// Core Data's `NSFetchRequestExpression`: a fetch request as the argument of another request's
/// predicate, which the store runs as a subquery of that request's statement — so a result of
/// any size never passes through memory.
///
///     // The newest item of each key stays; every older one is a duplicate.
///     var newest = FetchRequest<Item>()
///     newest.propertiesToFetch = [.maximum("SELF", as: "newest")]
///     newest.propertiesToGroupBy = ["key"]
///     let duplicates = try ObjectPredicate(format: "NOT (SELF IN %@)", FetchRequestExpression(newest))
///     try context.execute(BatchDeleteRequest(FetchRequest<Item>(predicate: duplicates)))
///
/// What the request gives the comparison:
/// - no properties to fetch: its objects, for `SELF IN %@` or `author IN %@`;
/// - one property to fetch: that key path's values (`SELF` for the objects), or its aggregate per
///   group of `propertiesToGroupBy` — `key IN %@`;
/// - `countOnly`, or one aggregate without groups: one number or value — `%@ > 10`,
///   `price == %@`.
///
/// The subquery reads the rows saved, as Core Data's does: objects the context has not saved
/// are not among its results. Its predicate's string operators and `[c]`/`[d]` run on SQLite
/// only: a PostgreSQL store refuses them here (``ContextError/invalidPredicate(_:)``).
public struct FetchRequestExpression: PredicateArgument, Sendable {
    /// The fetch, as the predicate language holds it.
    public let fetch: PredicateFetch

    /// The expression of `request`'s results, or of their count when `countOnly` is true. A
    /// request the store cannot run as a subquery is an error naming why: several properties to
    /// fetch, an expression property, a limit, an offset, or grouping without an aggregate.
    public init<Object>(_ request: FetchRequest<Object>, countOnly: Bool = false) throws(ContextError) {
        func fail(_ reason: String) -> ContextError { .invalidFetch("a fetch request of \(request.entityName) as an expression \(reason)") }
        guard request.fetchLimit == 0, request.fetchOffset == 0 else { throw fail("cannot have a limit or an offset: the store runs it whole") }
        let result: PredicateFetch.Result
        if countOnly {
            result = .count
        } else {
            switch request.propertiesToFetch.count {
            case 0:
                guard request.propertiesToGroupBy.isEmpty else { throw fail("can group only under an aggregate property") }
                result = .objects
            case 1:
                let property = request.propertiesToFetch[0]
                guard property.expression == nil else { throw fail("can take a key path or an aggregate of one, not the expression \(property)") }
                guard property.function != nil || request.propertiesToGroupBy.isEmpty else { throw fail("can group only under an aggregate property") }
                result = .values(keyPath: property.keyPath, function: property.function.map(Self.function), groupedBy: request.propertiesToGroupBy)
            default:
                throw fail("can give one property's values, not those of \(request.propertiesToFetch.count)")
            }
        }
        fetch = PredicateFetch(entityName: request.entityName, predicate: request.predicate, includesSubentities: request.includesSubentities, result: result)
    }

    public var predicateValue: PredicateValue { .fetch(fetch) }

    private static func function(_ function: PropertyToFetch.Function) -> PredicateFunction {
        switch function {
        case .count: .count
        case .sum: .sum
        case .average: .average
        case .minimum: .min
        case .maximum: .max
        }
    }
}
