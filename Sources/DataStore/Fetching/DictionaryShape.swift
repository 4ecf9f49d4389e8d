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
        }

        var name: String
        var keyPath: String
        var source: Source
        /// What the `SELECT` reads: one expression, or `Z_PK` and `Z_ENT` for an object.
        var selected: [SQL]
        /// The expression rows are grouped and ordered by (`Z_PK` for an object).
        var orderingTerm: SQL

        var isAggregate: Bool {
            if case .aggregate = source { true } else { false }
        }
    }

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
}
