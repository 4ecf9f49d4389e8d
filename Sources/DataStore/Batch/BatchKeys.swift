import GRDB

/// The rows a batch request changes, noted in a temporary table of the writer connection —
/// `(Z_ROOT, Z_PK, Z_ENT)`, keyed by the root entity's number and the row's key — so that each
/// statement of the request can join them instead of binding thousands of keys. Both engines look
/// a name up among the connection's temporary tables first, so the statements name it alone.
struct BatchKeys {
    static let table = "DSBATCHKEYS"
    /// The column of the root entity's number.
    static let root = "Z_ROOT"

    struct Row: Hashable {
        var root: Int
        var key: Int64
        var entityNumber: Int
    }

    let transaction: SaveTransaction
    let dialect: any SQLDialect

    /// Makes the table, or empties it.
    func clear() throws {
        try transaction.execute(
            "CREATE TEMP TABLE IF NOT EXISTS \(name: Self.table) (\(name: Self.root) BIGINT NOT NULL, \(.Z_PK) BIGINT NOT NULL, \(.Z_ENT) BIGINT NOT NULL, "
                + "PRIMARY KEY (\(name: Self.root), \(.Z_PK)))" + dialect.keyedTableOptions, [])
        try transaction.execute("DELETE FROM \(name: Self.table)", [])
    }

    /// Adds the rows `select` gives as `(root, key, entity)`, skipping those already there; the
    /// number added.
    @discardableResult
    func insert(_ select: SQLFragment) throws -> Int {
        let insert = SQLFragment(sql: dialect.insertKeepingExisting("INTO \(name: Self.table) (\(name: Self.root), \(.Z_PK), \(.Z_ENT))", select: select.sql), arguments: select.arguments)
        return try transaction.execute(insert)
    }

    /// `SELECT Z_PK FROM …` of the noted rows of the hierarchy `root`, for `IN (…)`.
    static func keys(root: Int, entity: Int? = nil) -> SQL {
        "SELECT \(.Z_PK) FROM \(name: table) WHERE \(name: Self.root) = \(root)" + (entity.map { " AND \(.Z_ENT) = \($0)" } ?? "")
    }

    /// The noted rows, in key order within each hierarchy; those of the hierarchy `root` only when given.
    func rows(root: Int? = nil) throws -> [Row] {
        let condition = root.map { " WHERE \(name: Self.root) = \($0)" } ?? SQL()
        var rows: [Row] = []
        try transaction.rows("SELECT \(name: Self.root), \(.Z_PK), \(.Z_ENT) FROM \(name: Self.table)\(condition) ORDER BY \(name: Self.root), \(.Z_PK)", []).forEach { row in
            rows.append(Row(root: Int(row.int64(0)), key: row.int64(1), entityNumber: Int(row.int64(2))))
        }
        return rows
    }

    /// The entity numbers of the noted rows.
    func entityNumbers() throws -> [Int] {
        var numbers: [Int] = []
        try transaction.rows("SELECT DISTINCT \(.Z_ENT) FROM \(name: Self.table) ORDER BY \(.Z_ENT)", []).forEach { numbers.append(Int($0.int64(0))) }
        return numbers
    }
}

extension BatchKeys {
    /// Notes the rows `plan` matches: with a `limit` or `offset`, those of its order. Where the
    /// store's SQL cannot judge the whole predicate or order (text comparisons on a server), the
    /// rows the SQL selects are judged and sorted in memory, as a fetch judges them, so a request
    /// changes exactly the objects a fetch returns.
    func insertMatching(_ plan: FetchPlan, limit: Int = 0, offset: Int = 0, store: PersistentStore) throws {
        guard plan.evaluatesInMemory else {
            try insert(plan.select("\(plan.entity.rootNumber), t0.\(.Z_PK), t0.\(.Z_ENT)", limit: limit, offset: offset, ordered: limit > 0 || offset > 0))
            return
        }
        let candidates = plan.select(plan.entity.selectColumns, ordered: false)
        // A context of its own: the request works on the store's rows, not on a context's objects.
        // Its faults read in the transaction: it sees the request's own writes, and on a server
        // takes no second connection from the pool while this one waits.
        let scratch = ObjectContext(store: store)
        scratch.transactionReader = { try transaction.rows($0) }
        let objects = try scratch.fetchRows(candidates, of: plan.entity, from: transaction.rows(candidates))
        let evaluator = PredicateEvaluator(context: scratch)
        let matching = objects.filter { object in plan.predicate.map { evaluator.evaluate($0, on: object) } ?? true }
        let chosen = scratch.sortedInMemory(matching.map { ($0, plan.sortKeys) }).dropFirst(offset).prefix(limit > 0 ? limit : .max)
        let keys = chosen.compactMap(\.objectID.primaryKey)
        for run in KeyParameters.runs(keys) {
            try insert(SQLFragment(
                sql: "SELECT \(plan.entity.rootNumber), \(.Z_PK), \(.Z_ENT) FROM \(name: plan.entity.tableName) WHERE \(.Z_PK) IN (\(KeyParameters.placeholders(run.count)))",
                arguments: run.map(\.databaseValue)))
        }
    }
}
