import GRDB

/// The list between a store and a list UI, as Core Data's `NSFetchedResultsController`: a fetch
/// request's matches in sections, loaded in batches as they are read, and kept current — a
/// delegate (or a sequence of snapshots) is told exactly how the list changed.
///
///     var request = FailedBankInfo.fetchRequest()
///     request.sortDescriptors = [ObjectSortDescriptor("details.closeDate", ascending: false)]
///     request.fetchBatchSize = 20
///     let banks = FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: "state")
///     banks.delegate = listView
///     try banks.performFetch()
///     let first = banks.object(at: ResultsIndexPath(item: 0, section: 0))
///
/// Opening reads only the keys of the matches, in order, and with sections the length of each
/// section (`GROUP BY`); past 4,096 matches, also the sort values of every 4,096th row, where the
/// searches that place changes start. Rows load `fetchBatchSize` at a time when touched. With a delegate or a
/// snapshot sequence, the list follows the context: its own changes (delivered by
/// `processPendingChanges()` and `save()`), other contexts' saves it merges, and writes by
/// other processes (`PersistentStore.checkForExternalChanges()`). Each changed object is placed
/// by the sort order — no refetch for a few changes — including objects reached through to-one
/// key paths (`details.closeDate`), and the request's `fetchOffset` and `fetchLimit` stay
/// honoured.
///
/// The section key path must be the first sort key; when the sort does not mention it, it is
/// prepended (ascending). Confined to its context's isolation, like the context.
public final class FetchedResultsController<Object: ManagedObject> {
    /// The request, with the section key prepended to the sort when it was missing.
    public let fetchRequest: FetchRequest<Object>
    public let context: ObjectContext
    public let sectionNameKeyPath: String?
    /// The name of the on-disk cache of section information, or `nil` for none. Caches live in
    /// ``FetchedResultsCache/directory`` — by default `DataStore/` in the user's caches folder —
    /// and a name stands for one request: under a changed request the sections are recomputed and
    /// the store logs a warning once (``FetchedResultsCache``).
    public let cacheName: String?
    /// Told about changes; without a delegate (and without snapshot sequences) the list stays as
    /// `performFetch()` left it, as Core Data's does.
    public weak var delegate: (any FetchedResultsControllerDelegate<Object>)?
    /// Why following the last change failed (a database error); the list is as before that change.
    public internal(set) var trackingError: FetchedResultsError?

    let requestError: FetchedResultsError?
    var plan: FetchPlan?
    var dependencies: ListDependencies?
    /// Whether the list looks again after the context's next save, for a fetch in its predicate.
    var awaitsSaveForFetches = false
    var list = ResultsList()
    var layout = SectionLayout.empty
    var loaded: LoadedRows<Object>
    var sortValues = SortValueCache()
    /// The length of the list's key chunks; small in tests, so that a short list has many.
    var keyChunkCapacity = ChunkedArray<Int64>.defaultChunkCapacity
    var observer: ObjectContext.ObserverToken?
    let streams = SnapshotStreams()

    public init(fetchRequest: FetchRequest<Object>, context: ObjectContext, sectionNameKeyPath: String? = nil, cacheName: String? = nil) {
        var request = fetchRequest
        var error: FetchedResultsError?
        if let sectionNameKeyPath {
            if let position = request.sortDescriptors.firstIndex(where: { $0.keyPath == sectionNameKeyPath }) {
                if position != 0 {
                    error = .sectionKeyPathNotFirstSortKey(sectionKeyPath: sectionNameKeyPath, sortKeyPaths: request.sortDescriptors.map(\.keyPath))
                } else if request.sortDescriptors[0].comparator != .compare {
                    error = .sectionSortNotExact(sectionKeyPath: sectionNameKeyPath, comparator: request.sortDescriptors[0].comparator)
                }
            } else {
                request.sortDescriptors.insert(ObjectSortDescriptor(sectionNameKeyPath), at: 0)
            }
        }
        if request.sortDescriptors.isEmpty { error = .missingSortDescriptors(entity: request.entityName) }
        self.fetchRequest = request
        self.context = context
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
        requestError = error
        loaded = LoadedRows(batchLimit: request.fetchBatchSize > 0 ? 3 : 0)
    }

    deinit {
        if let observer { context.removeObserver(observer) }
        streams.finish()
    }

    // MARK: Fetching

    /// Reads the list: the keys of the matches and the section lengths (from the cache when it is
    /// valid). Call again after changing nothing but wanting a fresh start; changes are followed
    /// without it.
    public func performFetch() throws(FetchedResultsError) {
        let plan = try makePlan()
        let (list, sortValues) = try readList(plan, cache: sectionCache)
        show(list, sortValues, of: plan)
    }

    /// The plan of the request, which becomes the controller's; throws what is wrong with the request.
    func makePlan() throws(FetchedResultsError) -> FetchPlan {
        if let requestError { throw requestError }
        do {
            plan = try FetchPlan(fetchRequest, store: context.storeFetching(fetchRequest.entityName), coordinator: context.coordinator)
        } catch {
            throw .fetch(error)
        }
        return plan!
    }

    /// The section cache named `cacheName`, for the controller's `plan`.
    var sectionCache: SectionCache? {
        cacheName.flatMap { SectionCache(name: $0, controller: self) }
    }

    /// Makes `list` the controller's, read for `plan`, and tracks the context's changes from now on.
    func show(_ list: ResultsList, _ sortValues: SortValueCache, of plan: FetchPlan) {
        self.plan = plan
        dependencies = ListDependencies(plan)
        (self.list, self.sortValues) = (list, sortValues)
        loaded.removeAll()
        relayout()
        if observer == nil {
            observer = context.addObserver { [weak self] changes in self?.contextDidChange(changes) }
        }
    }

    /// The list as the store and the context's unsaved changes have it now, and a cache of sort
    /// values holding, when the store was read, those of each key chunk's first row (one query).
    func readList(_ plan: FetchPlan, cache: SectionCache? = nil) throws(FetchedResultsError) -> (ResultsList, SortValueCache) {
        do {
            let fromStore = !context.judgesInMemory(plan, fetchRequest)
            var list = fromStore ? try readListFromStore(plan, cache: cache) : try readListInMemory(plan)
            // A list of one chunk has one fence, read by the first search that needs it; its
            // filter is made by the first search too.
            let starts = list.keys.chunkStarts
            guard starts.count > 1 else { return (list, SortValueCache()) }
            // So that the first change to a long list finds its rows as quickly as the next.
            list.keys.prepareFilters()
            let fences = fromStore ? try context.readSortValues(plan, keys: starts.map { list.keys[$0] }) : [:]
            return (list, SortValueCache(fences: fences))
        } catch {
            throw .fetch(error)
        }
    }

    /// The keys and section lengths as the store has them.
    private func readListFromStore(_ plan: FetchPlan, cache: SectionCache?) throws(ContextError) -> ResultsList {
        var list = ResultsList()
        // Two reads: a save between them shows as lengths that do not add up; read again.
        for _ in 0..<3 {
            list = keyedList(try context.readKeys(plan), plan)
            guard sectionNameKeyPath != nil else { break }
            if let runs = cache?.runs(count: list.keys.count) {
                list.runs = runs
            } else {
                list.runs = cached(try readRuns(plan), in: cache)
            }
            if list.sectionsAddUp { break }
        }
        return list
    }

    /// A list of the keys (and entity numbers) `readKeys` read, without sections yet.
    func keyedList(_ read: (keys: [Int64], entityNumbers: [Int32]), _ plan: FetchPlan) -> ResultsList {
        var list = ResultsList()
        list.keys = ChunkedArray(read.keys, chunkCapacity: keyChunkCapacity)
        list.entityNumbers = plan.entity.hasSubentities ? ChunkedArray(read.entityNumbers, chunkCapacity: keyChunkCapacity) : nil
        return list
    }

    /// `runs`, kept in `cache` for the next opening.
    func cached(_ runs: [ResultsList.SectionRun], in cache: SectionCache?) -> [ResultsList.SectionRun] {
        cache?.store(runs)
        return runs
    }

    /// The section lengths by `GROUP BY`, in the order of the first sort key (from `rows`, when
    /// they were read already).
    func readRuns(_ plan: FetchPlan, from rows: ReadRows? = nil) throws(ContextError) -> [ResultsList.SectionRun] {
        let sql = plan.selectRunLengths()
        let attribute = plan.sortKeys[0].attribute
        var runs: [ResultsList.SectionRun] = []
        try context.forEachRow(sql, in: plan.store, from: rows) { row in
            let value = row.databaseValue(0)
            runs.append(ResultsList.SectionRun(value: value, name: Self.sectionName(value, attribute), count: Int(row.int64(1))))
        }
        return runs
    }

    /// The list judged in memory, for a context with unsaved changes.
    private func readListInMemory(_ plan: FetchPlan) throws(ContextError) -> ResultsList {
        list(of: try context.matchingObjects(plan, inMemoryRequest), plan)
    }

    /// The request whose matching objects make the list in memory: every one, the limit and
    /// offset applied by the layout.
    var inMemoryRequest: FetchRequest<Object> {
        var request = fetchRequest
        request.fetchLimit = 0
        request.fetchOffset = 0
        return request
    }

    /// The list of `objects`, matched and ordered in memory.
    func list(of objects: [ManagedObject], _ plan: FetchPlan) -> ResultsList {
        var list = ResultsList()
        list.keys = ChunkedArray(objects.lazy.map { ResultsList.key(of: $0.objectID) }, chunkCapacity: keyChunkCapacity)
        list.temporaryKeys = Set(list.keys.lazy.filter { $0 < 0 })
        if plan.entity.hasSubentities { list.entityNumbers = ChunkedArray(objects.lazy.map { Int32($0.entity.number) }, chunkCapacity: keyChunkCapacity) }
        if sectionNameKeyPath != nil {
            let evaluator = PredicateEvaluator(context: context)
            let key = plan.sortKeys[0]
            for object in objects {
                let value = evaluator.storedValue(of: key.attribute, at: key.path, from: object)
                if let last = list.runs.indices.last, ResultsList.sameSection(list.runs[last].value, value) {
                    list.runs[last].count += 1
                } else {
                    list.runs.append(ResultsList.SectionRun(value: value, name: Self.sectionName(value, key.attribute), count: 1))
                }
            }
        }
        return list
    }

    /// A section's name: the section value as text (`""` for `nil`).
    static func sectionName(_ value: DatabaseValue, _ attribute: AttributeDescription) -> String {
        switch AttributeValue(value, as: attribute.type) {
        case .null: ""
        case .string(let string): string
        case let other: other.description
        }
    }

    /// Recomputes the visible sections after the list changed.
    func relayout() {
        layout = SectionLayout(list, offset: fetchRequest.fetchOffset, limit: fetchRequest.fetchLimit) { [delegate] name in
            delegate?.controller(self, sectionIndexTitleForSectionName: name) ?? Self.defaultIndexTitle(name)
        }
    }

    static func defaultIndexTitle(_ name: String) -> String {
        name.first.map { String($0).uppercased() } ?? ""
    }

    // MARK: Reading

    /// The visible objects in order (those inside the request's offset and limit), loading in
    /// batches as they are read; `nil` before `performFetch()`. A value: it keeps the list as it
    /// was when read.
    public var fetchedObjects: FetchedObjects<Object>? {
        plan == nil ? nil : FetchedObjects(controller: self, keys: list.keys.elements(in: layout.window), entityNumbers: list.entityNumbers.map { $0.elements(in: layout.window) })
    }

    /// The sections in order; `nil` before `performFetch()`. Without a section key path there is
    /// one section, named `""`, even when nothing matches (an empty section, as in Core Data).
    public var sections: [FetchedResultsSection<Object>]? {
        guard plan != nil else { return nil }
        return layout.sections.map { section in
            FetchedResultsSection(name: section.name, indexTitle: section.indexTitle, numberOfObjects: section.count, controller: self, range: section.start..<section.start + section.count)
        }
    }

    /// The object at `indexPath`, which must be in the list.
    public func object(at indexPath: ResultsIndexPath) -> Object {
        guard let index = layout.visibleIndex(of: indexPath) else {
            preconditionFailure("index path \(indexPath) is not in the results (\(layout.sections.map(\.count)) objects per section)")
        }
        return object(atVisible: index)
    }

    /// Where `object` is, or `nil` when the list does not have it.
    public func indexPath(forObject object: Object) -> ResultsIndexPath? {
        let key = ResultsList.key(of: object.objectID)
        guard let index = list.keys.position(of: key, in: layout.window) else { return nil }
        return layout.indexPath(ofVisible: index - layout.window.lowerBound)
    }

    /// The index titles of the sections, each once, in section order.
    public var sectionIndexTitles: [String] {
        var seen = Set<String>()
        return layout.sections.compactMap(\.indexTitle).filter { seen.insert($0).inserted }
    }

    /// The index title of the section named `name`: the delegate's, or its capitalised first letter.
    public func sectionIndexTitle(forSectionName name: String) -> String? {
        delegate?.controller(self, sectionIndexTitleForSectionName: name) ?? Self.defaultIndexTitle(name)
    }

    /// The section an index title leads to: the first with that title; for a title no section has
    /// (a full A–Z index), the first section of the nearest title before it in
    /// `sectionIndexTitles` (`sectionIndex` is the title's position in the index the user tapped).
    public func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        if let section = layout.sections.firstIndex(where: { $0.indexTitle == title }) { return section }
        let titles = sectionIndexTitles
        guard !titles.isEmpty else { return 0 }
        let preceding = titles.last { $0 < title } ?? titles[min(max(sectionIndex, 0), titles.count - 1)]
        return layout.sections.firstIndex { $0.indexTitle == preceding } ?? 0
    }

    /// The list as values: section names, object IDs in order, no objects loaded.
    public var snapshot: FetchedResultsSnapshot {
        snapshot(reloading: [])
    }

    func snapshot(reloading reloaded: [ObjectID]) -> FetchedResultsSnapshot {
        let window = layout.window
        let sections = layout.sections.map { section in
            FetchedResultsSnapshot.Section(name: section.name, itemIdentifiers: (section.start..<section.start + section.count).map {
                objectID(listIndex: window.lowerBound + $0)
            })
        }
        return FetchedResultsSnapshot(sections: sections, reloadedItemIdentifiers: reloaded)
    }

    /// A snapshot now (after `performFetch()`) and after every change, until the sequence is
    /// dropped; keeps the list current like a delegate does.
    public var snapshots: AsyncStream<FetchedResultsSnapshot> {
        let (stream, continuation) = AsyncStream.makeStream(of: FetchedResultsSnapshot.self, bufferingPolicy: .bufferingNewest(16))
        if plan != nil { continuation.yield(snapshot) }
        streams.add(continuation)
        return stream
    }

    // MARK: Rows

    func objectID(key: Int64, entityNumber: Int32) -> ObjectID {
        (plan?.store ?? context.store).objectID(key: key > 0 ? .permanent(key) : .temporary(UInt64(-key)), entityNumber: Int(entityNumber))
    }

    func objectID(listIndex index: Int) -> ObjectID {
        objectID(key: list.keys[index], entityNumber: entityNumber(listIndex: index))
    }

    /// The entity of every row when the entity has no subentities.
    private var fetchedEntityNumber: Int32 { Int32(plan?.entity.number ?? 0) }

    func entityNumber(listIndex index: Int) -> Int32 {
        list.entityNumbers?[index] ?? fetchedEntityNumber
    }

    func object(atVisible index: Int) -> Object {
        let listIndex = layout.window.lowerBound + index
        return object(at: listIndex, keys: list.keys, entityNumbers: list.entityNumbers)
    }

    /// The object at `index` of `keys`, loading its batch — Core Data's second query — when it is
    /// not loaded yet.
    func object<Keys: RandomAccessCollection<Int64>, Entities: RandomAccessCollection<Int32>>(
        at index: Int, keys: Keys, entityNumbers: Entities?
    ) -> Object where Keys.Index == Int, Entities.Index == Int {
        if let object = loaded[keys[index]] { return object }
        let batchSize = fetchRequest.fetchBatchSize > 0 ? min(fetchRequest.fetchBatchSize, 10_000) : 1_000
        let start = index / batchSize * batchSize
        let range = start..<min(keys.count, start + batchSize)
        let saved = keys[range].filter { $0 > 0 }
        var fetched: [Int64: ManagedObject] = [:]
        if let plan, !saved.isEmpty, let objects = try? context.fetchRows(plan.selectBatch(saved), of: plan.entity, asFaults: plan.returnsObjectsAsFaults) {
            for object in objects { fetched[ResultsList.key(of: object.objectID)] = object }
        }
        let batch = range.map { position in
            let key = keys[position]
            let id = objectID(key: key, entityNumber: entityNumbers?[position] ?? fetchedEntityNumber)
            // A row gone since the keys were read gives an object that reads as unset values.
            let object = fetched[key] ?? context.object(with: id)
            return (key, unsafeDowncast(object, to: Object.self))
        }
        loaded.add(batch)
        return batch[index - start].1
    }
}

/// The visible objects of a results controller as a collection, loaded in batches when read.
public struct FetchedObjects<Object: ManagedObject>: RandomAccessCollection {
    let controller: FetchedResultsController<Object>
    let keys: [Int64]
    let entityNumbers: [Int32]?

    public var startIndex: Int { 0 }
    public var endIndex: Int { keys.count }

    public subscript(position: Int) -> Object {
        controller.object(at: position, keys: keys, entityNumbers: entityNumbers)
    }
}

/// A section of a results controller: its name, index title and objects.
public struct FetchedResultsSection<Object: ManagedObject> {
    public let name: String
    public let indexTitle: String?
    public let numberOfObjects: Int
    let controller: FetchedResultsController<Object>
    /// The section's visible indices.
    let range: Range<Int>

    /// The section's objects, loaded in batches.
    public var objects: [Object] {
        range.map { controller.object(atVisible: $0) }
    }
}
