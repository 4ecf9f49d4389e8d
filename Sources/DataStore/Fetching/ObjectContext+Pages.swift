extension ObjectContext {
    /// Hands the objects that match `request` to `body` a page of `pageSize` at a time, in key
    /// order, reading each page when the one before is done: memory holds one page, whatever the
    /// number of matches. The request's sort descriptors, offset and limit do not apply, and the
    /// context's unsaved changes do not count.
    func forEachPage(of request: FetchRequest<ManagedObject>, pageSize: Int, _ body: ([ManagedObject]) throws -> Void) throws {
        let plan = try FetchPlan(request, store: storeFetching(request.entityName), coordinator: coordinator)
        // Where the store's SQL selects candidates only (text comparisons on a server), each
        // candidate is judged by the predicate in memory, as a fetch judges it.
        let evaluator = plan.evaluatesInMemory ? PredicateEvaluator(context: self) : nil
        var lastKey: Int64 = 0
        while true {
            let page = try fetchRows(plan.selectPage(after: lastKey, limit: pageSize), of: plan.entity, asFaults: plan.returnsObjectsAsFaults)
            guard let last = page.last?.objectID.primaryKey else { return }
            if let evaluator, let predicate = plan.predicate {
                try body(page.filter { evaluator.evaluate(predicate, on: $0) })
            } else {
                try body(page)
            }
            guard page.count == pageSize else { return }
            lastKey = last
        }
    }
}
