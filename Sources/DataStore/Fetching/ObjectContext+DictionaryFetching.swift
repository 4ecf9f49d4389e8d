import DataModel
import GRDB
import GRDBSQLite

/// Dictionary fetches: values and aggregates instead of objects, computed in SQL — or, when the
/// context has unsaved changes the request includes, in memory with the same meaning (Core Data
/// ignores pending changes here; this does not).
extension ObjectContext {
    /// Whether dictionary results are computed in memory from the matching objects: when their
    /// matches are (`judgesInMemory`), and on a server, whose aggregates and groups of text would
    /// not always agree with SQLite's, and when a column is an expression.
    func judgesDictionariesInMemory<Object>(_ plan: FetchPlan, _ request: FetchRequest<Object>) -> Bool {
        judgesInMemory(plan, request) || !plan.dialect.matchesTextInSQL || plan.dictionary?.computesInMemory == true
    }

    /// One dictionary per matching object — or per distinct result, or per group — holding the
    /// request's `propertiesToFetch` by name: attribute values as `.attribute`, to-one destinations
    /// as `.object`; a nil value has no entry, as in Core Data.
    ///
    ///     var request = FetchRequest<Book>()
    ///     request.propertiesToFetch = ["author.name", .sum("price", as: "total")]
    ///     request.propertiesToGroupBy = ["author.name"]
    ///     request.sortDescriptors = [ObjectSortDescriptor("author.name")]
    ///     for row in try context.fetchDictionaries(request) { print(row["author.name"], row["total"]) }
    ///
    /// Sort descriptors order the results; in a grouped or distinct fetch they must name grouped or
    /// fetched key paths, and results equal under them come in the order of their key values.
    /// Limit and offset count results, not objects.
    public func fetchDictionaries<Object>(_ request: FetchRequest<Object>) throws(ContextError) -> [[String: PredicateValue]] {
        let plan = try FetchPlan(request, store: storeFetching(request.entityName), coordinator: coordinator, forDictionaries: true)
        guard let shape = plan.dictionary else { return [] }
        guard !judgesDictionariesInMemory(plan, request) else {
            let objects = try matchingObjects(plan, Self.inMemoryRequest(shape, request))
            return Self.dictionaries(try rowsInMemory(plan, shape, request, objects), shape)
        }
        return Self.dictionaries(try rowsInSQL(Self.dictionarySQL(plan, shape, request), shape, in: plan.store), shape)
    }

    /// The results, each cell by its column's name; a nil value has no entry.
    static func dictionaries(_ rows: [[DictionaryCell]], _ shape: DictionaryShape) -> [[String: PredicateValue]] {
        rows.map { cells in
            var dictionary: [String: PredicateValue] = [:]
            for (column, cell) in zip(shape.columns, cells) {
                if let value = cell.value(for: column) { dictionary[column.name] = value }
            }
            return dictionary
        }
    }

    /// A value of a result before it is typed: as stored, or an object's ID.
    enum DictionaryCell {
        case stored(DatabaseValue)
        case object(ObjectID?)

        func value(for column: DictionaryShape.Column) -> PredicateValue? {
            switch self {
            case .object(let id): return id.map { .object($0) }
            case .stored(let stored):
                guard !stored.isNull else { return nil }
                let type: AttributeType = switch column.source {
                case .value(_, let attribute): attribute.type
                case .object: .integer64
                case .aggregate(let function, _, let attribute): Self.type(of: function, over: attribute.type)
                case .computed(_, let kind): kind.attributeType
                case .computedAggregate(let function, _, let kind): Self.type(of: function, over: kind.attributeType)
                }
                return .attribute(AttributeValue(stored, as: type))
            }
        }

        /// The type of an aggregate's values over values of `type`.
        private static func type(of function: PropertyToFetch.Function, over type: AttributeType) -> AttributeType {
            switch function {
            case .count: .integer64
            case .average: .double
            case .sum: type.isInteger ? .integer64 : type == .decimal ? .decimal : .double
            case .minimum, .maximum: type
            }
        }

        /// Equality as SQLite's `DISTINCT` and `GROUP BY` see it.
        var key: StoredValueKey {
            switch self {
            case .stored(let value): StoredValueKey(value)
            case .object(let id): id.map(StoredValueKey.object) ?? .null
            }
        }

        /// The store's order: stored values as SQLite compares them, objects by key.
        static func compare(_ lhs: DictionaryCell, _ rhs: DictionaryCell) -> Int {
            switch (lhs, rhs) {
            case (.stored(let left), .stored(let right)): StoredValueOrder.compare(left, right)
            case (.object(let left), .object(let right)):
                switch (left, right) {
                case (nil, nil): 0
                case (nil, _): -1
                case (_, nil): 1
                case (let left?, let right?): left == right ? 0 : ObjectContext.storeOrder(left, right) ? -1 : 1
                }
            case (.stored, .object): -1
            case (.object, .stored): 1
            }
        }
    }

    /// The query that computes the results in SQL.
    static func dictionarySQL<Object>(_ plan: FetchPlan, _ shape: DictionaryShape, _ request: FetchRequest<Object>) -> SQLFragment {
        let keyTerms = shape.keys.map(\.orderingTerm)
        return plan.select(
            shape.columns.flatMap(\.selected).joined(separator: ", "), distinct: shape.isDistinct,
            groupBy: shape.isGrouped ? keyTerms : [],
            orderTerms: shape.isGrouped || shape.isDistinct ? plan.sortTerms + keyTerms.filter { !plan.sortTerms.contains($0) } : nil,
            limit: request.fetchLimit, offset: request.fetchOffset)
    }

    /// The results of `sql`, from `rows` when they were read already.
    func rowsInSQL(_ sql: SQLFragment, _ shape: DictionaryShape, in store: PersistentStore, from read: ReadRows? = nil) throws(ContextError) -> [[DictionaryCell]] {
        var rows: [[DictionaryCell]] = []
        try forEachRow(sql, in: store, from: read) { columns in
            var index: Int32 = 0
            var row: [DictionaryCell] = []
            row.reserveCapacity(shape.columns.count)
            for column in shape.columns {
                if case .object = column.source {
                    let isNull = columns.isNull(index)
                    row.append(.object(isNull ? nil : store.objectID(key: .permanent(columns.int64(index)), entityNumber: Int(columns.int64(index + 1)))))
                    index += 2
                } else {
                    row.append(.stored(columns.databaseValue(index)))
                    index += 1
                }
            }
            rows.append(row)
        }
        return rows
    }

    /// The request whose matching objects `rowsInMemory` computes the results from: all of them,
    /// unordered, when they are grouped or distinct.
    static func inMemoryRequest<Object>(_ shape: DictionaryShape, _ request: FetchRequest<Object>) -> FetchRequest<Object> {
        guard shape.isGrouped || shape.isDistinct else { return request }
        var everything = request
        everything.fetchLimit = 0
        everything.fetchOffset = 0
        everything.sortDescriptors = []
        return everything
    }

    /// The same rows as `rowsInSQL`, from `objects`, those matching `inMemoryRequest`, with their
    /// unsaved changes.
    func rowsInMemory<Object>(
        _ plan: FetchPlan, _ shape: DictionaryShape, _ request: FetchRequest<Object>, _ objects: [ManagedObject]
    ) throws(ContextError) -> [[DictionaryCell]] {
        let evaluator = PredicateEvaluator(context: self)
        func cell(_ column: DictionaryShape.Column, _ object: ManagedObject) -> DictionaryCell {
            switch column.source {
            case .value(let path, let attribute), .aggregate(_, let path, let attribute):
                .stored(evaluator.storedValue(of: attribute, at: path, from: object))
            case .object(let path): .object(evaluator.objectID(at: path, from: object))
            case .computed(let expression, .object), .computedAggregate(_, let expression, .object):
                .object(evaluator.objectID(of: expression, on: object))
            case .computed(let expression, _), .computedAggregate(_, let expression, _):
                .stored(evaluator.storedValue(of: expression, on: object))
            }
        }
        guard shape.isGrouped || shape.isDistinct else {
            return objects.map { object in shape.columns.map { cell($0, object) } }
        }
        var rows: [(keys: [DictionaryCell], cells: [DictionaryCell])] = []
        if shape.isGrouped {
            var members: [[ManagedObject]] = []
            if shape.keys.isEmpty {
                // No group-by key paths: every object is in the one group, which exists even empty.
                members = [objects]
                rows = [([], [])]
            } else {
                var groups: [[StoredValueKey]: Int] = [:]
                for object in objects {
                    let keys = shape.keys.map { cell($0, object) }
                    let key = keys.map(\.key)
                    if let group = groups[key] {
                        members[group].append(object)
                    } else {
                        groups[key] = members.count
                        members.append([object])
                        rows.append((keys, []))
                    }
                }
            }
            for (group, objects) in members.enumerated() {
                rows[group].cells = try shape.columns.map { (column) throws(ContextError) -> DictionaryCell in
                    guard let (function, ofIntegers) = column.aggregate else {
                        return objects.first.map { cell(column, $0) } ?? .stored(.null)
                    }
                    let cells = objects.map { cell(column, $0) }
                    // Objects are only counted.
                    let objectCount = cells.count { if case .object(_?) = $0 { true } else { false } }
                    if objectCount > 0 { return .stored(Int64(objectCount).databaseValue) }
                    let values = cells.compactMap { cell -> DatabaseValue? in
                        guard case .stored(let value) = cell, !value.isNull else { return nil }
                        return value
                    }
                    return .stored(try Self.aggregate(function, ofIntegers: ofIntegers, values))
                }
            }
        } else {
            var seen: Set<[StoredValueKey]> = []
            let sorted = objects.sorted { Self.storeOrder($0.objectID, $1.objectID) }
            for object in sorted {
                let cells = shape.columns.map { cell($0, object) }
                if seen.insert(cells.map(\.key)).inserted { rows.append((cells, cells)) }
            }
        }
        rows.sort { lhs, rhs in
            for (position, sortKey) in zip(shape.sortKeyPositions, plan.sortKeys) {
                guard case .stored(let left) = lhs.keys[position], case .stored(let right) = rhs.keys[position] else { continue }
                let order = SortComparison.compare(left, right, sortKey.descriptor.comparator)
                if order != 0 { return sortKey.descriptor.ascending ? order < 0 : order > 0 }
            }
            for (left, right) in zip(lhs.keys, rhs.keys) {
                let order = DictionaryCell.compare(left, right)
                if order != 0 { return order < 0 }
            }
            return false
        }
        let start = min(request.fetchOffset, rows.count)
        let end = request.fetchLimit > 0 ? min(rows.count, start + request.fetchLimit) : rows.count
        return rows[start..<end].map(\.cells)
    }

    /// An aggregate over non-null stored values, as the SQL of `DictionaryShape` computes it.
    private static func aggregate(_ function: PropertyToFetch.Function, ofIntegers: Bool, _ values: [DatabaseValue]) throws(ContextError) -> DatabaseValue {
        switch function {
        case .count: return StoredAggregate.value(.count, values)
        case .sum where ofIntegers:
            guard let sum = StoredAggregate.integerSum(values) else { throw .database(message: "integer overflow") }
            return sum.databaseValue
        case .sum: return StoredAggregate.value(.sum, values)
        case .average: return StoredAggregate.value(.average, values)
        case .minimum: return StoredAggregate.value(.minimum, values)
        case .maximum: return StoredAggregate.value(.maximum, values)
        }
    }
}
