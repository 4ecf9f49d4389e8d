/// Which other objects a list's rows depend on: a sort key, the section key or the predicate may
/// read values through relationships (`details.closeDate`, `ANY tags.name`), so a change to such
/// an object can move, add or remove the rows that reach it.
struct ListDependencies {
    /// A relationship path from the fetched entity; a changed object of `destination` (or of a
    /// subentity) affects the rows whose path reaches it.
    struct Path {
        var names: [String]
        var destination: EntityDescription
        /// Whether the last step is a to-many relationship (rows reach the object through `ANY`).
        var endsWithToMany: Bool

        /// The rows this path leads from to `id`.
        func rows(reaching id: ObjectID) -> ObjectPredicate {
            .comparison(PredicateComparison(
                .keyPath(.evaluatedObject, names), .equal, .constant(.object(id)), quantifier: endsWithToMany ? .any : .direct))
        }
    }

    private(set) var paths: [Path] = []
    /// Entities read in ways that cannot be traced back to rows (inside `ANY`/`SUBQUERY` beyond
    /// the collection's own elements): a change to one of their objects means looking again.
    private(set) var untraceable: [EntityDescription] = []
    /// Entities a fetch in the predicate reads: it reads their saved rows, so a change to one of
    /// their objects means looking again once it is saved.
    private(set) var fetched: [EntityDescription] = []

    /// Whether a change to an object of `entity` changes what a fetch in the predicate gives.
    func isFetched(_ entity: EntityDescription) -> Bool {
        fetched.contains { $0.subtreeNumbers.contains(entity.number) }
    }

    init(_ plan: FetchPlan) {
        for key in plan.sortKeys { add(key.path) }
        if let predicate = plan.predicate { visit(predicate) }
    }

    private init() {}

    /// The paths whose destination `entity` is, or `nil` when its objects cannot be traced.
    func paths(to entity: EntityDescription) -> [Path]? {
        if untraceable.contains(where: { $0.subtreeNumbers.contains(entity.number) }) { return nil }
        return paths.filter { $0.destination.subtreeNumbers.contains(entity.number) }
    }

    private mutating func add(_ path: ResolvedPath) {
        guard path.scope == 0 else {
            untraceable += path.toOnes.map(\.destination)
            return
        }
        var names: [String] = []
        for (relationship, destination) in path.toOnes {
            names.append(relationship.name)
            append(Path(names: names, destination: destination, endsWithToMany: false))
        }
    }

    private mutating func add(_ collection: ResolvedCollection) {
        guard collection.owner.scope == 0 else {
            untraceable += collection.owner.toOnes.map(\.destination) + [collection.destination]
            return
        }
        add(collection.owner)
        let names = collection.owner.toOnes.map(\.relationship.name) + [collection.relationship.name]
        append(Path(names: names, destination: collection.destination, endsWithToMany: true))
    }

    private mutating func append(_ path: Path) {
        if !paths.contains(where: { $0.names == path.names }) { paths.append(path) }
    }

    private mutating func visit(_ predicate: ResolvedPredicate) {
        switch predicate {
        case .constant: break
        case .not(let inner): visit(inner)
        case .and(let terms), .or(let terms): for term in terms { visit(term) }
        case .compare(let lhs, _, let rhs, _):
            visit(lhs)
            visit(rhs)
        case .quantified(_, let collection, let inner):
            add(collection)
            visit(inner)
        }
    }

    private mutating func visit(_ expression: ResolvedExpression) {
        switch expression {
        case .value, .objectValue: break
        case .list(let items): for item in items { visit(item) }
        case .attribute(let path, _), .object(let path): add(path)
        case .aggregate(_, let collection, let value):
            add(collection)
            if let (path, _) = value { add(path) }
        case .subqueryCount(let collection, let inner):
            add(collection)
            visit(inner)
        case .operation(_, let operands, _), .function(_, let operands): for operand in operands { visit(operand) }
        case .numberText(let number): visit(number)
        case .conditional(let condition, let whenTrue, let whenFalse):
            visit(condition)
            visit(whenTrue)
            visit(whenFalse)
        case .fetched(let fetch):
            // Any object of the fetched entity, or of one its predicate reads, may change the
            // results, and with them any row.
            var inner = ListDependencies()
            inner.visit(fetch.predicate)
            if case .value(let value, _, let groups) = fetch.selection { for expression in [value] + groups { inner.visit(expression) } }
            let read = [fetch.entity] + inner.paths.map(\.destination) + inner.untraceable
            untraceable += read
            fetched += read
        }
    }
}
