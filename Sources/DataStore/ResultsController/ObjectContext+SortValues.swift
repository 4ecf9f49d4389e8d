import GRDB

extension ObjectContext {
    /// The sort values of the rows keyed `keys`, by key, as the store holds them: what the
    /// objects of those rows give `plan`'s sort keys, without making the objects.
    func readSortValues(_ plan: FetchPlan, keys: [Int64]) throws(ContextError) -> [Int64: [DatabaseValue]] {
        var values: [Int64: [DatabaseValue]] = [:]
        for run in KeyParameters.runs(keys) {
            try forEachRow(plan.selectSortValues(run)) { row in
                values[row.int64(0)] = plan.sortKeys.indices.map { plan.sortValue($0, column: Int32(1 + $0), of: row) }
            }
        }
        return values
    }
}
