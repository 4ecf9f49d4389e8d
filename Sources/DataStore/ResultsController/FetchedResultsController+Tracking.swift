import GRDB

/// Following the context: each batch of changes becomes an edit of the list and a report to the
/// delegate.
extension FetchedResultsController {
    /// Whether anyone listens; without, the list stays as fetched (Core Data's first mode).
    var isTracking: Bool { delegate != nil || !streams.isEmpty }

    func contextDidChange(_ changes: ObjectsDidChange) {
        guard let plan, let dependencies else { return }
        // A list that is not followed no longer matches the values read for it.
        if !isTracking { sortValues.removeAll() }
        if !changes.permanentIDs.isEmpty { adoptPermanentIDs(changes.permanentIDs) }
        guard isTracking, changes.invalidatesAll || !(changes.inserted.isEmpty && changes.updated.isEmpty && changes.deleted.isEmpty) else { return }
        do throws(FetchedResultsError) {
            trackingError = nil
            let updatedKeys = Set(changes.updated.map(ResultsList.key(of:)))
            if changes.invalidatesAll { return try lookAgain(plan, updated: updatedKeys) }
            lookAgainAfterSave(ifFetchesRead: changes, dependencies)
            guard let affected = try affectedObjects(changes, plan, dependencies) else {
                return try lookAgain(plan, updated: updatedKeys.union(changes.inserted.map(ResultsList.key(of:))))
            }
            guard !affected.isEmpty else { return }
            // Placing each object costs a binary search; past a point one read of the keys is cheaper.
            if affected.count > max(64, list.count / 8) {
                try lookAgain(plan, updated: Set(affected.map(ResultsList.key(of:))))
            } else {
                place(affected, deleted: changes.deleted, plan)
            }
        } catch .fetch(.saveInProgress) {
            // The store holds rows the context does not know it saved yet: look again once it does.
            var again = changes
            again.invalidatesAll = true
            context.afterTopContextSave { [weak self] in self?.contextDidChange(again) }
        } catch {
            trackingError = error
        }
    }

    /// A fetch in the predicate reads saved rows, which this context's unsaved changes to the
    /// entities it reads will rewrite: look again once they are saved.
    private func lookAgainAfterSave(ifFetchesRead changes: ObjectsDidChange, _ dependencies: ListDependencies) {
        guard !awaitsSaveForFetches, context.hasChanges else { return }
        let changed = changes.inserted.union(changes.updated).union(changes.deleted)
        guard changed.contains(where: { id in context.store.entity(number: id.entityNumber).map(dependencies.isFetched) ?? false }) else { return }
        awaitSaveForFetches()
    }

    /// Looks again after the next save of the top context, which writes the changes to the store
    /// (a child's save only moves them into its parent). A top context used elsewhere hands its
    /// saves to this context through merges, which look again as they arrive.
    private func awaitSaveForFetches() {
        let top = context.topContext
        guard top.isolation === context.isolation else { return }
        awaitsSaveForFetches = true
        top.afterNextSave.append { [weak self] in
            guard let self else { return }
            awaitsSaveForFetches = false
            contextDidChange(ObjectsDidChange(invalidatesAll: true))
            // Changes made while that save wrote are saved by a later one.
            if context.hasChanges { awaitSaveForFetches() }
        }
    }

    /// A save gave inserted objects their permanent IDs: same objects, same places, new keys.
    private func adoptPermanentIDs(_ ids: [ObjectID: ObjectID]) {
        var keys: [Int64: Int64] = [:]
        for (temporary, permanent) in ids { keys[ResultsList.key(of: temporary)] = ResultsList.key(of: permanent) }
        sortValues.forget(keys.keys)
        var renamedVisible = false
        if !list.temporaryKeys.isEmpty {
            for (index, temporary) in list.keys.enumerated() where temporary < 0 {
                guard let key = keys[temporary] else { continue }
                list.temporaryKeys.remove(temporary)
                list.keys[index] = key
                renamedVisible = renamedVisible || layout.window.contains(index)
            }
        }
        loaded.rekey(keys)
        // Positions did not change, so callbacks have nothing to say; snapshots name objects by ID.
        guard renamedVisible else { return }
        if let delegate, delegate.prefersSnapshots { delegate.controller(self, didChangeContentWith: snapshot) }
        if !streams.isEmpty { streams.yield(snapshot) }
    }

    /// The fetched entity's objects the changes may add, remove or move: changed objects of the
    /// entity, and the rows whose key paths reach changed related objects. `nil` when a change
    /// cannot be traced to rows.
    private func affectedObjects(_ changes: ObjectsDidChange, _ plan: FetchPlan, _ dependencies: ListDependencies) throws(FetchedResultsError) -> Set<ObjectID>? {
        var affected = Set<ObjectID>()
        for id in changes.inserted.union(changes.updated).union(changes.deleted) {
            if plan.entityNumbers.contains(id.entityNumber) {
                affected.insert(id)
                continue
            }
            guard let entity = context.store.entity(number: id.entityNumber) else { continue }
            guard let paths = dependencies.paths(to: entity) else { return nil }
            for path in paths {
                var request = FetchRequest<ManagedObject>(entityName: plan.entity.name)
                request.predicate = path.rows(reaching: id)
                request.includesSubentities = fetchRequest.includesSubentities
                do {
                    affected.formUnion(try context.fetchObjectIDs(request))
                } catch {
                    throw .fetch(error)
                }
            }
        }
        return affected
    }

    /// The current object for `id`, or `nil` when it is deleted or its row is gone.
    private func liveObject(_ id: ObjectID) -> ManagedObject? {
        if let object = context.registeredObject(for: id) {
            guard object.context === context, !object.isDeleted else { return nil }
            if object.isLoaded { return object }
        }
        return try? context.existingObject(with: id)
    }

    /// Takes the affected objects out of the list and puts those that still match back where the
    /// sort order places them, found by binary search against the rows around them.
    private func place(_ affected: Set<ObjectID>, deleted: Set<ObjectID>, _ plan: FetchPlan) {
        let before = Before(self)
        let affectedKeys = Set(affected.map(ResultsList.key(of:)))
        sortValues.forget(affectedKeys)
        let evaluator = PredicateEvaluator(context: context)
        func values(of object: ManagedObject) -> [DatabaseValue] {
            plan.sortKeys.map { evaluator.storedValue(of: $0.attribute, at: $0.path, from: object) }
        }
        func values(at index: Int, key: Int64, isFence: Bool) -> [DatabaseValue] {
            if let values = sortValues[key] { return values }
            let values = values(of: context.object(with: objectID(key: key, entityNumber: entityNumber(listIndex: index))))
            sortValues.store(values, for: key, isFence: isFence)
            return values
        }
        /// Where a row with sort values `target` and `key` belongs: the first row that does not precede it;
        /// `nil` when the search would read one of the rows in `avoiding`. The search finds the
        /// chunk first, among the chunks' first rows (whose values the cache keeps), then the row
        /// in it, so that it reads about as many rows from the store in a list of any length.
        func insertionIndex(_ target: [DatabaseValue], _ key: Int64, avoiding: Set<Int64> = []) -> Int? {
            /// Whether the row at `index`, keyed `probe`, precedes the target; `nil` when it must not be read.
            func precedesTarget(_ index: Int, _ probe: Int64, isFence: Bool) -> Bool? {
                if probe != key, avoiding.contains(probe) { return nil }
                return precedes(values(at: index, key: probe, isFence: isFence), probe, target, key, plan)
            }
            let starts = list.keys.chunkStarts
            var low = 0, high = starts.count
            while low < high {
                let middle = (low + high) / 2
                guard let precedes = precedesTarget(starts[middle], list.keys.chunk(middle)[0], isFence: true) else { return nil }
                if precedes { low = middle + 1 } else { high = middle }
            }
            // The first row of chunk `low` does not precede the target (or there is none), the
            // first row of the chunk before does: the place is after that row, in its chunk or at its end.
            guard low > 0 else { return 0 }
            let start = starts[low - 1]
            let keys = list.keys.chunk(low - 1)
            (low, high) = (1, keys.count)
            while low < high {
                var middle = (low + high) / 2
                // A row beside the middle whose values are kept costs no read: an earlier search's
                // row, one place over since a row came or went before it.
                if sortValues[keys[middle]] == nil {
                    if middle - 1 >= low, sortValues[keys[middle - 1]] != nil {
                        middle -= 1
                    } else if middle + 1 < high, sortValues[keys[middle + 1]] != nil {
                        middle += 1
                    }
                }
                guard let precedes = precedesTarget(start + middle, keys[middle], isFence: false) else { return nil }
                if precedes { low = middle + 1 } else { high = middle }
            }
            return start + low
        }
        /// The index of an affected row: where its current sort values place it when they are the
        /// ones the list was sorted by (a deletion, an edit of other attributes), else found by
        /// looking through the list. Probes never read another affected row, whose values may be new.
        func index(of id: ObjectID, key: Int64) -> Int? {
            guard list.mayContain(key) else { return nil }
            if let object = context.registeredObject(for: id), object.isLoaded,
               let index = insertionIndex(values(of: object), key, avoiding: affectedKeys), index < list.count, list.keys[index] == key
            {
                return index
            }
            return list.index(of: key)
        }

        var removed: [ListEdit.Entry] = []
        if affectedKeys.count <= 8 {
            for id in affected {
                let key = ResultsList.key(of: id)
                if let index = index(of: id, key: key) {
                    removed.append(ListEdit.Entry(index: index, key: key, entityNumber: entityNumber(listIndex: index)))
                }
            }
            removed.sort { $0.index < $1.index }
        } else {
            for (index, key) in list.keys.enumerated() where affectedKeys.contains(key) {
                removed.append(ListEdit.Entry(index: index, key: key, entityNumber: entityNumber(listIndex: index)))
            }
        }

        var members: [(key: Int64, object: ManagedObject, values: [DatabaseValue])] = []
        for id in affected where !deleted.contains(id) {
            guard let object = liveObject(id), plan.includes(object),
                  plan.predicate.map({ evaluator.evaluate($0, on: object) }) ?? true else { continue }
            members.append((ResultsList.key(of: id), object, values(of: object)))
        }
        list.remove(at: removed.map(\.index))
        members.sort { precedes($0.values, $0.key, $1.values, $1.key, plan) }

        var rows: [ResultsList.Row] = []
        for (offset, member) in members.enumerated() {
            let low = insertionIndex(member.values, member.key) ?? list.count
            let section = sectionNameKeyPath == nil ? nil : (member.values[0], Self.sectionName(member.values[0], plan.sortKeys[0].attribute))
            rows.append(ResultsList.Row(index: low + offset, key: member.key, entityNumber: Int32(member.object.entity.number), section: section))
        }
        list.insert(rows)
        let inserted = rows.map { ListEdit.Entry(index: $0.index, key: $0.key, entityNumber: $0.entityNumber) }
        report(ListEdit(removed: removed, inserted: inserted, updated: affectedKeys), before)
    }

    /// Whether a row with sort values `lhs` and key `lhsKey` comes before one with `rhs`, `rhsKey`.
    private func precedes(_ lhs: [DatabaseValue], _ lhsKey: Int64, _ rhs: [DatabaseValue], _ rhsKey: Int64, _ plan: FetchPlan) -> Bool {
        for (index, key) in plan.sortKeys.enumerated() {
            let order = SortComparison.compare(lhs[index], rhs[index], key.descriptor.comparator)
            if order != 0 { return key.descriptor.ascending ? order < 0 : order > 0 }
        }
        return ResultsList.keyPrecedes(lhsKey, rhsKey)
    }

    /// Reads the list again and reports the difference by key: for changes that name no objects
    /// (another process wrote the store) or too many to place one by one.
    private func lookAgain(_ plan: FetchPlan, updated: Set<Int64>) throws(FetchedResultsError) {
        let before = Before(self, keepingWindow: true)
        (list, sortValues) = try readList(plan)
        report(ListEdit(removed: [], inserted: [], updated: updated), before)
    }

    /// What the report needs of the list before a change.
    struct Before {
        var layout: SectionLayout
        /// The visible keys and entity numbers, kept when the request has an offset or limit (rows
        /// slide in and out at the edges) or when the list is read again: the report then compares
        /// the visible rows by key.
        var window: (keys: [Int64], entityNumbers: [Int32])?

        init(_ controller: FetchedResultsController, keepingWindow: Bool = false) {
            layout = controller.layout
            let request = controller.fetchRequest
            if keepingWindow || request.fetchOffset > 0 || request.fetchLimit > 0 {
                let range = controller.layout.window
                window = (controller.list.keys.elements(in: range), range.map { controller.entityNumber(listIndex: $0) })
            }
        }
    }

    /// Tells the delegate and the snapshot sequences how the visible list changed.
    private func report(_ edit: ListEdit, _ before: Before) {
        relayout()
        let changes: ChangeReport
        if let window = before.window {
            let range = layout.window
            let windowEdit = ListEdit(
                from: window.keys, { window.entityNumbers[$0] },
                to: list.keys.elements(in: range), { self.entityNumber(listIndex: range.lowerBound + $0) }, updated: edit.updated,
                sameSection: { [layout] in before.layout.sectionName(ofVisible: $0) == layout.sectionName(ofVisible: $1) })
            changes = ChangeReport(windowEdit, old: before.layout, new: layout, objectID: objectID(key:entityNumber:))
        } else {
            changes = ChangeReport(edit, old: before.layout, new: layout, objectID: objectID(key:entityNumber:))
        }
        guard !changes.isEmpty else { return }
        let reloaded = changes.objects.filter { $0.type == .update }.map(\.objectID)
        if let delegate {
            if delegate.prefersSnapshots {
                delegate.controller(self, didChangeContentWith: snapshot(reloading: reloaded))
            } else {
                delegate.controllerWillChangeContent(self)
                for change in changes.sections { delegate.controller(self, didChange: change) }
                for change in changes.objects { delegate.controller(self, didChange: change) }
                delegate.controllerDidChangeContent(self)
            }
        }
        if !streams.isEmpty { streams.yield(snapshot(reloading: reloaded)) }
    }
}
