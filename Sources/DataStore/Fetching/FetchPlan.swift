import GRDB

/// A fetch request checked against the store and compiled once: its predicate and sort keys
/// resolved, and the SQL that selects its rows in order.
struct FetchPlan {
    let entity: EntityDescription
    /// The entity numbers that match: the entity's subtree, or the entity alone.
    let entityNumbers: ClosedRange<Int>
    /// The entities numbered `entityNumbers`: those of every object the plan fetches.
    let entities: ArraySlice<EntityDescription>
    let predicate: ResolvedPredicate?
    let sortKeys: [SortKey]
    /// `FROM <table> t0` and the joins the predicate and sort keys need.
    let from: SQL
    /// The `WHERE` condition (entity filter and predicate), or `nil` for every row.
    let condition: SQLFragment?
    /// The `WHERE` condition of the entity filter alone.
    let entityCondition: SQL?
    /// ` ORDER BY …` (sort keys, then `t0.Z_PK`).
    let orderBy: SQL
    /// The `ORDER BY` term of each sort key, with its comparator and direction.
    let sortTerms: [SQL]
    /// The SQL of each sort key's value, without comparator or direction.
    let sortColumns: [SQL]
    /// Whether the predicate and sort keys read only the fetched rows' own columns, so that an
    /// unsaved change to another object cannot change which rows match or their order.
    let isLocal: Bool
    /// Whether the store's SQL cannot tell which rows match or their order, so that they are
    /// judged in memory: on a server, text comparisons and sorts, whose meaning is `TextMatching`'s
    /// and `SortComparison`'s, and comparisons with text holding U+0000. `condition` then holds
    /// the terms of the predicate the SQL can say, and selects candidates.
    let evaluatesInMemory: Bool
    /// The request's `returnsObjectsAsFaults`.
    let returnsObjectsAsFaults: Bool
    /// The relationships of each prefetched key path.
    let prefetchPaths: [[RelationshipDescription]]
    /// For a dictionary fetch: its columns, groups and order.
    let dictionary: DictionaryShape?
    /// The SQL the store speaks.
    let dialect: any SQLDialect
    /// The store that holds the entity's objects, which runs the plan.
    let store: PersistentStore

    struct SortKey {
        var path: ResolvedPath
        var attribute: AttributeDescription
        var descriptor: ObjectSortDescriptor
    }

    /// A plan of `request` run by `store`; with a `coordinator` of several stores, a fetch in its
    /// predicate must read an entity `store` holds too.
    init<Object>(
        _ request: FetchRequest<Object>, store: PersistentStore, coordinator: PersistentStoreCoordinator? = nil, forDictionaries: Bool = false
    ) throws(ContextError) {
        guard let entity = store.entity(named: request.entityName) else { throw .unknownEntity(request.entityName) }
        guard entity.objectClass is Object.Type || Object.self == ManagedObject.self else {
            throw .classMismatch(entity: entity.name, type: "\(Object.self)")
        }
        self.entity = entity
        self.store = store
        dialect = store.dialect
        entityNumbers = request.includesSubentities ? entity.subtreeNumbers : entity.number...entity.number
        entities = store.entities[(entityNumbers.lowerBound - 1)...(entityNumbers.upperBound - 1)]
        var resolver = PredicateResolver(store: store, entity: entity)
        resolver.coordinator = coordinator
        let resolved = try request.predicate.map { (predicate) throws(ContextError) in try resolver.resolve(predicate) }
        predicate = resolved
        var keys: [SortKey] = []
        for descriptor in request.sortDescriptors {
            let (path, attribute) = try resolver.attributePath(descriptor.keyPath)
            keys.append(SortKey(path: path, attribute: attribute, descriptor: descriptor))
        }
        sortKeys = keys

        var compiler = PredicateSQLCompiler(store: store)
        let predicateInMemory = !store.dialect.matchesTextInSQL && resolved?.isJudgedInMemoryOnServers == true
        let sqlPredicate = predicateInMemory ? resolved.flatMap(Self.termsJudgedInSQL) : resolved
        var predicateSQL = sqlPredicate.map { compiler.compile($0) }
        if predicateInMemory, let resolved {
            // Text comparisons narrow the rows read where SQL can tell, exactly for ASCII values.
            let terms = if case .and(let terms) = resolved { terms } else { [resolved] }
            let candidates = terms.filter(\.isJudgedInMemoryOnServers).compactMap { compiler.textCandidates(of: $0) }
            if !candidates.isEmpty { predicateSQL = "(" + .joined(predicateSQL.map { [$0] + candidates } ?? candidates, separator: " AND ") + ")" }
        }
        var order: [SQL] = []
        var columns: [SQL] = []
        var sortsInMemory = false
        for key in keys {
            let column = compiler.column(key.path, key.attribute)
            columns.append(column)
            let term: SQL = switch key.descriptor.comparator {
            case .compare: column
            case .caseInsensitiveCompare: "DSFOLD(\(column), \(StringOptions.caseInsensitive.rawValue))"
            case .localizedStandardCompare: "\(column) COLLATE DSLOCALIZEDSTANDARD"
            }
            if !store.dialect.matchesTextInSQL && key.descriptor.comparator != .compare { sortsInMemory = true }
            order.append((sortsInMemory ? column : term) + store.dialect.direction(ascending: key.descriptor.ascending))
        }
        evaluatesInMemory = predicateInMemory || sortsInMemory
        sortColumns = columns
        sortTerms = order
        dictionary = forDictionaries ? try DictionaryShape(request, entity: entity, sortKeys: keys, resolver: resolver, compiler: &compiler) : nil
        order.append("t0.\(.Z_PK)")
        orderBy = " ORDER BY " + order.joined(separator: ", ")
        from = "FROM \(name: entity.tableName) t0" + compiler.rootJoins

        entityCondition = entity.rowFilter(includesSubentities: request.includesSubentities)
        switch (entityCondition, predicateSQL) {
        case (nil, nil): condition = nil
        case (let filter?, nil): condition = SQLFragment(sql: filter)
        case (nil, let predicate?): condition = predicate
        case (let filter?, let predicate?): condition = filter + " AND " + predicate
        }
        isLocal = !compiler.readsOtherRows
        returnsObjectsAsFaults = request.returnsObjectsAsFaults
        prefetchPaths = try ObjectContext.prefetchPaths(request.relationshipKeyPathsForPrefetching, from: entity, store: store)
    }

    /// The terms of `predicate`'s top-level `AND` that a server's SQL can say: a condition every
    /// match meets, for the candidates of a predicate judged in memory.
    private static func termsJudgedInSQL(_ predicate: ResolvedPredicate) -> ResolvedPredicate? {
        guard case .and(let terms) = predicate else { return nil }
        let inSQL = terms.filter { !$0.isJudgedInMemoryOnServers }
        return inSQL.isEmpty ? nil : .and(inSQL)
    }

    /// `SELECT <columns> FROM … WHERE … GROUP BY … ORDER BY … LIMIT … OFFSET …`, ordered by the
    /// sort keys then `t0.Z_PK` unless `orderTerms` says otherwise.
    func select(
        _ columns: SQL, distinct: Bool = false, groupBy: [SQL] = [], orderTerms: [SQL]? = nil,
        limit: Int = 0, offset: Int = 0, ordered: Bool = true
    ) -> SQLFragment {
        var sql = SQLFragment(sql: "SELECT \(distinct ? "DISTINCT " : "")\(columns) \(from)")
        if let condition { sql = sql + " WHERE " + condition }
        if !groupBy.isEmpty { sql = sql + " GROUP BY " + groupBy.joined(separator: ", ") }
        if let orderTerms {
            if !orderTerms.isEmpty { sql = sql + " ORDER BY " + orderTerms.joined(separator: ", ") }
        } else if ordered {
            sql = sql + orderBy
        }
        if limit > 0 || offset > 0 { sql = sql + dialect.limit(limit, offset: offset) }
        return sql
    }

    /// `SELECT <first sort key>, COUNT(*) … GROUP BY` in the first sort key's order: the length of
    /// each run of equal values in the fetch's order.
    func selectRunLengths() -> SQLFragment {
        let column = sortColumns[0]
        var sql = SQLFragment(sql: "SELECT \(column), COUNT(*) \(from)")
        if let condition { sql = sql + " WHERE " + condition }
        return sql + " GROUP BY \(column) ORDER BY \(column)\(dialect.direction(ascending: sortKeys[0].descriptor.ascending))"
    }

    /// Every column of the rows keyed `keys`, in the fetch's order — Core Data's query for one batch.
    func selectBatch(_ keys: [Int64]) -> SQLFragment {
        SQLFragment(
            sql: "SELECT \(entity.selectColumns) \(from) WHERE t0.\(.Z_PK) IN (\(KeyParameters.placeholders(keys.count)))"
                + orderBy + " LIMIT \(keys.count)" as SQL,
            arguments: keys.map { $0.databaseValue })
    }

    /// Every column of the first `limit` matching rows keyed above `key`, in key order: one page
    /// of a walk through every match that holds a page at a time.
    func selectPage(after key: Int64, limit: Int) -> SQLFragment {
        // The key is bound, so that every page runs the same prepared statement.
        var sql = SQLFragment(sql: "SELECT \(entity.selectColumns) \(from) WHERE t0.\(.Z_PK) > \(SQL.placeholder)", arguments: [key.databaseValue])
        if let condition { sql = sql + " AND (" + condition + ")" }
        return sql + " ORDER BY t0.\(.Z_PK)" + dialect.limit(limit, offset: 0)
    }

    /// The key and sort values of the rows keyed `keys`, in no particular order.
    func selectSortValues(_ keys: some Collection<Int64>) -> SQLFragment {
        SQLFragment(
            sql: "SELECT t0.\(.Z_PK), \(sortColumns.joined(separator: ", ")) \(from) WHERE t0.\(.Z_PK) IN (\(KeyParameters.placeholders(keys.count)))",
            arguments: keys.map { $0.databaseValue })
    }

    /// Every row of the entity, predicate or not, in store order.
    func selectAllRows(_ columns: SQL) -> SQL {
        "SELECT \(columns) FROM \(name: entity.tableName) t0" + (entityCondition.map { " WHERE " + $0 } ?? "") + " ORDER BY t0.\(.Z_PK)"
    }

    /// The value of sort key `index` selected in `column` (from `sortColumns`), as an object of the
    /// store would give it: read as its attribute's type, then as the store keeps that.
    func sortValue(_ index: Int, column: Int32, of row: RowColumns) -> DatabaseValue {
        AttributeValue(row.databaseValue(column), as: sortKeys[index].attribute.type).databaseValue
    }

    /// Whether an object of `entityNumber` is one this fetch returns.
    func includes(_ object: ManagedObject) -> Bool {
        entityNumbers.contains(object.entity.number)
    }
}
