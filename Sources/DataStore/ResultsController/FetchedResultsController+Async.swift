/// The asynchronous `performFetch()`: the list's queries — keys, section lengths, sort values —
/// read off the caller's isolation, as the context's `async` fetches read theirs, so that a server
/// answering a request, or the main actor, runs other work meanwhile.
extension FetchedResultsController {
    /// Reads the list as `performFetch()` does, with the store read off the caller's isolation.
    ///
    ///     let banks = FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: "state")
    ///     try await banks.performFetch()
    nonisolated(nonsending)
    public func performFetch() async throws(FetchedResultsError) {
        let plan = try makePlan()
        let shown: Bool
        do {
            shown = try await readAndShow(plan)
        } catch {
            throw .fetch(error)
        }
        // Changes made to the context while the store was read are judged in memory.
        if !shown { try await performFetch() }
    }

    /// Reads the list for `plan` and shows it; `false` when changes made to the context meanwhile
    /// call for it to be judged in memory instead.
    nonisolated(nonsending)
    private func readAndShow(_ plan: FetchPlan) async throws(ContextError) -> Bool {
        guard !context.judgesInMemory(plan, fetchRequest) else {
            show(list(of: try await context.matchingObjects(plan, inMemoryRequest), plan), SortValueCache(), of: plan)
            return true
        }
        var list = try await readListFromStore(plan, cache: sectionCache)
        guard !context.judgesInMemory(plan, fetchRequest) else { return false }
        let starts = list.keys.chunkStarts
        guard starts.count > 1 else {
            show(list, SortValueCache(), of: plan)
            return true
        }
        // So that the first change to a long list finds its rows as quickly as the next.
        list.keys.prepareFilters()
        let fences = try await context.readSortValues(plan, keys: starts.map { list.keys[$0] })
        guard !context.judgesInMemory(plan, fetchRequest) else { return false }
        show(list, SortValueCache(fences: fences), of: plan)
        return true
    }

    /// The keys and section lengths as the store has them, read again when a save between the
    /// two reads makes the lengths not add up.
    nonisolated(nonsending)
    private func readListFromStore(_ plan: FetchPlan, cache: SectionCache?) async throws(ContextError) -> ResultsList {
        var list = ResultsList()
        for _ in 0..<3 {
            list = keyedList(try context.readKeys(plan, from: try await context.readRows(context.keyQuery(plan), in: plan.store)), plan)
            guard sectionNameKeyPath != nil else { break }
            if let runs = cache?.runs(count: list.keys.count) {
                list.runs = runs
            } else {
                list.runs = cached(try readRuns(plan, from: try await context.readRows(plan.selectRunLengths(), in: plan.store)), in: cache)
            }
            if list.sectionsAddUp { break }
        }
        return list
    }
}
