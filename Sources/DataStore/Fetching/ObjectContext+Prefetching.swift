import GRDB

/// Prefetching (`relationshipKeyPathsForPrefetching`): the objects a fetch's results lead to, read
/// in one query per relationship step (per 500 sources) instead of one per object when used.
extension ObjectContext {
    /// The relationships of each key path, checked against the store: every component must name a
    /// relationship of the entity the path has reached.
    static func prefetchPaths(_ keyPaths: [String], from entity: EntityDescription, store: PersistentStore) throws(ContextError) -> [[RelationshipDescription]] {
        var paths: [[RelationshipDescription]] = []
        for keyPath in keyPaths {
            var current = entity
            var steps: [RelationshipDescription] = []
            for component in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
                guard let relationship = current.relationship(named: String(component)),
                      let destination = store.entity(number: relationship.destinationEntityNumber)
                else { throw .unknownKeyPath(entity: current.name, keyPath: keyPath) }
                guard !relationship.isTransient else {
                    throw .invalidFetch("'\(component)' of \(current.name) is transient; there is nothing to prefetch in '\(keyPath)'")
                }
                steps.append(relationship)
                current = destination
            }
            paths.append(steps)
        }
        return paths
    }

    /// Loads, for every path, the destinations of `objects` step by step: to-ones whose objects
    /// are faults are read by key, to-manys not loaded yet are read for all their owners at once.
    /// The objects reached are kept as rows in `prefetchedRows`, so that the ones nobody holds can
    /// be made again without reading the store.
    func prefetch(_ paths: [[RelationshipDescription]], for objects: [ManagedObject], asFaults: Bool) throws(ContextError) {
        var reached: [ManagedObject] = []
        for path in paths {
            var level = objects
            for relationship in path {
                level = try finish(prefetchStep(relationship, from: level), asFaults: asFaults)
                reached += level
            }
        }
        keepPrefetchedRows(of: reached)
    }

    /// `prefetch(_:for:asFaults:)` with every query read off the caller's isolation.
    nonisolated(nonsending)
    func prefetch(_ paths: [[RelationshipDescription]], for objects: [ManagedObject], asFaults: Bool) async throws(ContextError) {
        var reached: [ManagedObject] = []
        for path in paths {
            var level = objects
            for relationship in path {
                let step = prefetchStep(relationship, from: level)
                var rows: [ReadRows] = []
                for query in step.queries { rows.append(try await readRows(query.sql, in: store(holding: query.entity))) }
                level = try finish(step, rows: rows, asFaults: asFaults)
                reached += level
            }
        }
        keepPrefetchedRows(of: reached)
    }

    private func keepPrefetchedRows(of reached: [ManagedObject]) {
        for object in reached where object.isLoaded && !object.hasChanges {
            prefetchedRows[object.objectID] = PrefetchedRow(object)
        }
    }

    /// One step of a prefetch path: the destinations already known, and the queries that read the
    /// rest — the faults of a to-one by key, or a to-many's destinations for the owners that have
    /// not loaded them (ordered by owner, then by the relationship's order).
    struct PrefetchStep {
        struct Query {
            var sql: SQLFragment
            var entity: EntityDescription
            /// For a to-many: the owners the rows are read for, and the column of their key.
            var owners: ArraySlice<Int64> = []
            var ownerColumn: Int32 = 0
        }
        var relationship: RelationshipDescription
        var known: [ManagedObject]
        var queries: [Query] = []
        /// For a to-many: the owners without loaded destinations, by key.
        var unloadedOwners: [Int64: ManagedObject] = [:]
    }

    private func prefetchStep(_ relationship: RelationshipDescription, from level: [ManagedObject]) -> PrefetchStep {
        let owners = level.filter { $0.entity.relationship(named: relationship.name)?.slot == relationship.slot }
        return relationship.isToMany ? toManyStep(relationship, of: owners) : toOneStep(relationship, of: owners)
    }

    /// The destinations of a to-one, with queries for the ones that are faults, in runs of keys.
    private func toOneStep(_ relationship: RelationshipDescription, of owners: [ManagedObject]) -> PrefetchStep {
        var seen: Set<ObjectID> = []
        let destinations = owners.compactMap { loadedDestinationID(of: $0, slot: relationship.slot) }
            .filter { seen.insert($0).inserted }
            .map(object(with:))
        return PrefetchStep(relationship: relationship, known: destinations, queries: rowQueries(forFaultsAmong: destinations))
    }

    /// The queries that read the rows of the faults among `objects`, by key, a run of keys of one
    /// entity each.
    func rowQueries(forFaultsAmong objects: [ManagedObject]) -> [PrefetchStep.Query] {
        let faults = objects.filter { !$0.isLoaded && $0.objectID.primaryKey != nil }
        var queries: [PrefetchStep.Query] = []
        for entity in Set(faults.map(\.entity.number)).sorted() {
            // As the store holding the entity describes it: its rows are read there.
            guard let described = store.entity(number: entity), let description = store(holding: described).entity(number: entity) else { continue }
            let keys = faults.filter { $0.entity.number == entity }.compactMap(\.objectID.primaryKey)
            for chunk in KeyParameters.runs(keys) {
                let sql = SQLFragment(
                    sql: "SELECT \(description.selectColumns) FROM \(name: description.tableName) t0 WHERE t0.\(.Z_PK) IN (\(KeyParameters.placeholders(chunk.count)))",
                    arguments: chunk.map(\.databaseValue))
                queries.append(.init(sql: sql, entity: description))
            }
        }
        return queries
    }

    /// The destinations of a to-many the owners have loaded, with queries for the owners that have not.
    private func toManyStep(_ relationship: RelationshipDescription, of owners: [ManagedObject]) -> PrefetchStep {
        var step = PrefetchStep(relationship: relationship, known: [])
        // A relationship never leads out of its owners' store.
        guard let destination = (owners.first.map(store(of:)) ?? store).entity(number: relationship.destinationEntityNumber),
              let source = relationship.toManySource(destinationTable: destination.tableName)
        else { return step }
        for owner in owners {
            if !owner.isLoaded { owner.fulfillIfNeeded() }
            switch owner.relationshipValue(atSlot: relationship.slot) {
            case .unloaded: if let key = owner.objectID.primaryKey { step.unloadedOwners[key] = owner }
            case .toMany(let list): step.known += list.map(object(with:))
            case .toOne, nil: break
            }
        }
        // The owner's key is read after the destination's columns, which the materializer reads.
        let ownerColumn = Int32(destination.tableColumns.count)
        for chunk in KeyParameters.runs(step.unloadedOwners.keys.sorted()) {
            let sql = SQLFragment(
                sql: "SELECT \(destination.selectColumns), \(source.owner) \(source.from) WHERE \(source.owner) IN (\(KeyParameters.placeholders(chunk.count)))"
                    + " ORDER BY \(source.owner), \(source.order)",
                arguments: chunk.map(\.databaseValue))
            step.queries.append(.init(sql: sql, entity: destination, owners: chunk, ownerColumn: ownerColumn))
        }
        return step
    }

    /// The objects of the step's rows, each once, after the known ones; a to-many's owners get
    /// their destinations. The rows are `rows[i]` for `step.queries[i]` when they were read already,
    /// else read here, a row at a time.
    private func finish(_ step: PrefetchStep, rows: [ReadRows]? = nil, asFaults: Bool) throws(ContextError) -> [ManagedObject] {
        var destinations: [ManagedObject] = []
        var seen: Set<ObjectID> = []
        func reached(_ object: ManagedObject) {
            if seen.insert(object.objectID).inserted { destinations.append(object) }
        }
        step.known.forEach(reached)
        for (index, query) in step.queries.enumerated() {
            let read = rows?[index]
            var materializer = RowMaterializer(context: self, entity: query.entity, asFaults: asFaults)
            guard step.relationship.isToMany else {
                try forEachRow(query.sql, in: store(holding: query.entity), from: read) { row in _ = materializer.object(for: row) }
                continue
            }
            var lists: [Int64: ObjectIDList] = [:]
            try forEachRow(query.sql, in: store(holding: query.entity), from: read) { row in
                let object = materializer.object(for: row)
                lists[row.int64(query.ownerColumn), default: ObjectIDList()].append(object.objectID)
                reached(object)
            }
            for key in query.owners {
                // An owner changed while the rows were read keeps what it has.
                guard let owner = step.unloadedOwners[key], case .unloaded = owner.relationshipValue(atSlot: step.relationship.slot) else { continue }
                owner.setReadRelationshipValue(.toMany(lists[key] ?? ObjectIDList()), atSlot: step.relationship.slot)
            }
        }
        return destinations
    }

    /// The to-one destination, read without firing an object fetched as a fault (it stays one).
    private func loadedDestinationID(of object: ManagedObject, slot: Int) -> ObjectID? {
        guard object.isLoaded, case .toOne(let id) = object.relationshipValue(atSlot: slot) else {
            return destinationID(of: object, slot: slot)
        }
        return id
    }
}
