import GRDB
import PredicateLanguage

/// A fetch in a predicate (`PredicateFetch`, Core Data's `NSFetchRequestExpression`) resolved
/// against its own entity: its object is scope 0 of `predicate` and `selection`, so it never reads
/// the row of the statement it is part of. The SQL compiler makes it a subquery; in memory, the
/// same subquery is run, so both see the rows saved, as Core Data's subquery does.
struct ResolvedFetch {
    let entity: EntityDescription
    let includesSubentities: Bool
    let predicate: ResolvedPredicate
    let selection: Selection
    /// What a comparison compares with the results.
    let kind: PredicateResolver.ValueKind
    /// Tells this fetch from others of one predicate, for an evaluation that reads its results once.
    let identity = Identity()

    final class Identity: Sendable {}

    enum Selection {
        /// The matching objects, as their primary keys (`SELF IN %@`).
        case objects
        /// How many objects match.
        case count
        /// A value of each match, or an aggregate of it over each group.
        case value(ResolvedExpression, function: AggregateFunction?, groupedBy: [ResolvedExpression])
    }

    /// Whether its results are objects, compared by primary key within `objectTable`.
    var isObjects: Bool { kind == .object }

    /// The table of the objects it gives: the fetched entity's, or that of the to-one it takes.
    var objectTable: String {
        if case .value(.object(let path), _, _) = selection { path.end.tableName } else { entity.tableName }
    }

    /// Whether it gives one value (a count, an aggregate of values over all matches), which
    /// compares as any value does; the others give a list, the right of `IN`.
    var isScalar: Bool {
        // An object compares by row, which needs its table: as the right of `IN` only.
        guard !isObjects else { return false }
        return switch selection {
        case .objects: false
        case .count: true
        case .value(_, let function, let groups): function != nil && groups.isEmpty
        }
    }
}

extension PredicateResolver {
    /// `fetch` resolved against its entity, or an error naming what it cannot be.
    func resolved(_ fetch: PredicateFetch) throws(ContextError) -> ResolvedFetch {
        func fail(_ reason: String) -> ContextError { .invalidPredicate("\(reason), in \(fetch)") }
        guard let entity = store.entity(named: fetch.entityName) else { throw fail("the fetch names no entity '\(fetch.entityName)'") }
        if let coordinator, coordinator.onlyStore == nil, coordinator.persistentStore(forEntityNamed: entity.name) !== store {
            throw fail("the fetch reads entity \(entity.name), which another store than the fetched entity's holds; a fetch in a predicate runs in its store")
        }
        var inner = PredicateResolver(store: store, entity: entity)
        inner.coordinator = coordinator
        let predicate = try fetch.predicate.map { (predicate) throws(ContextError) in try inner.resolve(predicate) } ?? .constant(true)
        if !store.dialect.matchesTextInSQL, predicate.isJudgedInMemoryOnServers {
            throw fail("a server runs a fetch in a predicate as SQL, which cannot say its string operators, [c] or [d]")
        }
        switch fetch.result {
        case .objects:
            return ResolvedFetch(entity: entity, includesSubentities: fetch.includesSubentities, predicate: predicate, selection: .objects, kind: .object)
        case .count:
            return ResolvedFetch(entity: entity, includesSubentities: fetch.includesSubentities, predicate: predicate, selection: .count, kind: .count)
        case .values(let keyPath, let function, let groupedBy):
            let (value, valueKind) = try inner.fetchedValue(keyPath, fail)
            var groups: [ResolvedExpression] = []
            for group in groupedBy { groups.append(try inner.fetchedValue(group, fail).value) }
            let aggregate: AggregateFunction?
            let kind: ValueKind
            switch function {
            case nil: (aggregate, kind) = (nil, valueKind)
            case .count?: (aggregate, kind) = (.count, .count)
            case .sum? where valueKind != .object: (aggregate, kind) = (.sum, .real)
            case .average? where valueKind != .object: (aggregate, kind) = (.average, .real)
            case .min?: (aggregate, kind) = (.minimum, valueKind)
            case .max?: (aggregate, kind) = (.maximum, valueKind)
            case let other?: throw fail("a fetch aggregates with count:, sum:, average:, min: or max:, not \(other.rawValue) of '\(keyPath)'")
            }
            guard groups.isEmpty || aggregate != nil else { throw fail("a fetch groups its objects only under an aggregate of '\(keyPath)'") }
            return ResolvedFetch(
                entity: entity, includesSubentities: fetch.includesSubentities, predicate: predicate,
                selection: .value(value, function: aggregate, groupedBy: groups), kind: kind)
        }
    }

    /// The value a fetch takes of each object: `SELF`, an attribute or a to-one's object through
    /// to-ones.
    private func fetchedValue(_ keyPath: String, _ fail: (String) -> ContextError) throws(ContextError) -> (value: ResolvedExpression, kind: ValueKind) {
        let expression: PredicateExpression = keyPath == "SELF" ? .evaluatedObject : .key(keyPath)
        switch try side(expression) {
        case .resolved(.attribute(let path, let attribute), let kind) where attribute.type != .composite: return (.attribute(path, attribute), kind)
        case .resolved(.object(let path), _): return (.object(path), .object)
        default: throw fail("'\(keyPath)' is not SELF, an attribute or a to-one relationship, which is what a fetch takes of each object")
        }
    }
}
