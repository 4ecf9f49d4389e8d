import DataModel

/// A dictionary fetch resolved against its entity and compiled with the fetch's joins: its
/// columns, the key paths that group rows, and how rows are ordered.
struct DictionaryShape {
    /// One fetched property.
    struct Column {
        enum Source {
            case value(ResolvedPath, AttributeDescription)
            /// The object at the end of a to-one path, as its ID.
            case object(ResolvedPath)
            case aggregate(PropertyToFetch.Function, ResolvedPath, AttributeDescription)
            /// An expression of each object (`PropertyToFetch.expression`), of the kind it computes.
            case computed(ResolvedExpression, PredicateResolver.ValueKind)
            /// An aggregate over each group of an expression of each object: `sum:(price * quantity)`.
            case computedAggregate(PropertyToFetch.Function, ResolvedExpression, PredicateResolver.ValueKind)
        }

        var name: String
        var keyPath: String
        var source: Source
        /// What the `SELECT` reads: one expression, or `Z_PK` and `Z_ENT` for an object.
        var selected: [SQL]
        /// The expression rows are grouped and ordered by (`Z_PK` for an object).
        var orderingTerm: SQL

        var isAggregate: Bool {
            switch source {
            case .aggregate, .computedAggregate: true
            case .value, .object, .computed: false
            }
        }

        /// Whether the column is computed in memory, from the matching objects.
        var isComputed: Bool {
            switch source {
            case .computed, .computedAggregate: true
            case .value, .object, .aggregate: false
            }
        }

        /// The aggregate the column computes, if any, and whether it computes it from integers.
        var aggregate: (function: PropertyToFetch.Function, ofIntegers: Bool)? {
            switch source {
            case .aggregate(let function, _, let attribute): (function, attribute.type.isInteger)
            case .computedAggregate(let function, _, let kind): (function, kind.isInteger)
            case .value, .object, .computed: nil
            }
        }
    }

    /// Whether some column is an expression, computed in memory.
    var computesInMemory: Bool { columns.contains(where: \.isComputed) }

    var columns: [Column]
    /// Rows are grouped: by `keys` (none: all rows make one group), aggregates per group.
    var isGrouped: Bool
    var isDistinct: Bool
    /// What identifies a row and breaks ties after the sort keys: the group-by key paths, the
    /// fetched properties of a distinct fetch; none otherwise (objects come in store order).
    var keys: [Column]
    /// For each sort key, its position in `keys` (grouped and distinct fetches only).
    var sortKeyPositions: [Int]

    init<Object>(
        _ request: FetchRequest<Object>, entity: EntityDescription, sortKeys: [FetchPlan.SortKey],
        resolver: PredicateResolver, compiler: inout PredicateSQLCompiler
    ) throws(ContextError) {
        func column(_ property: PropertyToFetch) throws(ContextError) -> Column {
            if let expression = property.expression { return try Self.computedColumn(property.name, expression, resolver) }
            let (path, attribute) = try resolver.propertyPath(property.keyPath)
            guard let attribute else {
                guard property.function == nil, !path.toOnes.isEmpty else {
                    throw .invalidFetch("'\(property.keyPath)' must name an attribute for \(property)")
                }
                let (key, entity) = compiler.objectColumns(path)
                return Column(name: property.name, keyPath: property.keyPath, source: .object(path), selected: [key, entity], orderingTerm: key)
            }
            guard attribute.columnName != nil else {
                throw .invalidFetch("'\(property.keyPath)' has no column of its own to fetch (a composite attribute)")
            }
            let value = compiler.column(path, attribute)
            guard let function = property.function else {
                return Column(name: property.name, keyPath: property.keyPath, source: .value(path, attribute), selected: [value], orderingTerm: value)
            }
            let aggregate: SQL = switch function {
            case .count: "COUNT(\(value))"
            case .sum: attribute.type.isInteger ? "COALESCE(SUM(\(value)), 0)" : "TOTAL(\(value))"
            case .average: "AVG(\(value))"
            case .minimum: "MIN(\(value))"
            case .maximum: "MAX(\(value))"
            }
            return Column(name: property.name, keyPath: property.keyPath, source: .aggregate(function, path, attribute), selected: [aggregate], orderingTerm: aggregate)
        }

        let properties = request.propertiesToFetch.isEmpty
            ? entity.attributes.filter { !$0.isTransient && $0.columnName != nil }.map { PropertyToFetch.key($0.name) }
            : request.propertiesToFetch
        var columns: [Column] = []
        for property in properties {
            guard !columns.contains(where: { $0.name == property.name }) else { throw .invalidFetch("two properties are named '\(property.name)'") }
            columns.append(try column(property))
        }
        var groups: [Column] = []
        for keyPath in request.propertiesToGroupBy { groups.append(try column(.key(keyPath))) }
        self.columns = columns
        isGrouped = !groups.isEmpty || columns.contains(where: \.isAggregate)
        isDistinct = request.returnsDistinctResults
        if isGrouped {
            if isDistinct {
                throw .invalidFetch("returnsDistinctResults does not combine with propertiesToGroupBy or aggregates: each group is one result already")
            }
            for column in columns where !column.isAggregate && !request.propertiesToGroupBy.contains(column.keyPath) {
                throw .invalidFetch("'\(column.keyPath)' is neither grouped by nor aggregated")
            }
            keys = groups
        } else {
            keys = isDistinct ? columns : []
        }
        var positions: [Int] = []
        if isGrouped || isDistinct {
            for sortKey in sortKeys {
                guard let position = keys.firstIndex(where: { $0.keyPath == sortKey.descriptor.keyPath }) else {
                    throw .invalidFetch("sort key '\(sortKey.descriptor.keyPath)' must be \(isGrouped ? "grouped by" : "fetched") to order \(isGrouped ? "groups" : "distinct results")")
                }
                positions.append(position)
            }
        }
        sortKeyPositions = positions
    }

    /// The column of an expression: an aggregate of an expression of each object when the
    /// expression is `sum:`, `count:`, `min:`, `max:` or `average:` of something that is not a
    /// collection; the expression of each object otherwise.
    private static func computedColumn(_ name: String, _ expression: PredicateExpression, _ resolver: PredicateResolver) throws(ContextError) -> Column {
        func resolved(_ expression: PredicateExpression) throws(ContextError) -> (ResolvedExpression, PredicateResolver.ValueKind) {
            let side = try resolver.side(expression)
            // A `nil` constant has no kind of its own: no value, read as a number.
            let kind = resolver.kind(of: side) ?? .real
            switch side {
            case .resolved(let resolved, _): return (resolved, kind)
            case .constant(let value):
                return (try resolver.constant(value) { reason in .invalidFetch("\(reason), in the expression '\(expression)' of '\(name)'") }, kind)
            }
        }
        func isCollection(_ expression: PredicateExpression) throws(ContextError) -> Bool {
            if case .collection = expression { return true }
            if case .toMany? = try resolver.walkIfKeyPath(expression) { return true }
            return false
        }
        if case .function(let function, let arguments) = expression, arguments.count == 1,
           let aggregate = PropertyToFetch.Function(function), try !isCollection(arguments[0]) {
            let (value, kind) = try resolved(arguments[0])
            guard kind != .object || aggregate == .count else {
                throw .invalidFetch("'\(name)': \(function.rawValue) of objects; only count: counts them")
            }
            return Column(name: name, keyPath: name, source: .computedAggregate(aggregate, value, kind), selected: [], orderingTerm: SQL())
        }
        let (value, kind) = try resolved(expression)
        return Column(name: name, keyPath: name, source: .computed(value, kind), selected: [], orderingTerm: SQL())
    }
}

extension PropertyToFetch.Function {
    /// The aggregate an expression's function computes over rows, if it is one.
    init?(_ function: PredicateFunction) {
        switch function {
        case .sum: self = .sum
        case .count: self = .count
        case .min: self = .minimum
        case .max: self = .maximum
        case .average: self = .average
        default: return nil
        }
    }
}
