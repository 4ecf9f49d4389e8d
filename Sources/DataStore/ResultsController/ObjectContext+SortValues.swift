import GRDB

extension ObjectContext {
    /// The sort values of the rows keyed `keys`, by key, as the store holds them: what the
    /// objects of those rows give `plan`'s sort keys, without making the objects.
    func readSortValues(_ plan: FetchPlan, keys: [Int64]) throws(ContextError) -> [Int64: [DatabaseValue]] {
        var values: [Int64: [DatabaseValue]] = [:]
        for run in KeyParameters.runs(keys) {
            try forEachRow(plan.selectSortValues(run), in: plan.store) { row in values[row.int64(0)] = Self.sortValues(of: row, plan) }
        }
        return values
    }

    /// `readSortValues(_:keys:)`, each query read off the caller's isolation.
    nonisolated(nonsending)
    func readSortValues(_ plan: FetchPlan, keys: [Int64]) async throws(ContextError) -> [Int64: [DatabaseValue]] {
        var values: [Int64: [DatabaseValue]] = [:]
        for run in KeyParameters.runs(keys) {
            let sql = plan.selectSortValues(run)
            try forEachRow(sql, in: plan.store, from: try await readRows(sql, in: plan.store)) { row in values[row.int64(0)] = Self.sortValues(of: row, plan) }
        }
        return values
    }

    /// The sort values of a row of `plan.selectSortValues`, after its key.
    private static func sortValues(of row: RowColumns, _ plan: FetchPlan) -> [DatabaseValue] {
        plan.sortKeys.indices.map { plan.sortValue($0, column: Int32(1 + $0), of: row) }
    }
}
