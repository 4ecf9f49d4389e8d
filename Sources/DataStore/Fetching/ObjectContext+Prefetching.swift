import GRDB
import GRDBSQLite

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
                let owners = level.filter { $0.entity.relationship(named: relationship.name)?.slot == relationship.slot }
                level = relationship.isToMany
                    ? try prefetchToMany(relationship, of: owners, asFaults: asFaults)
                    : try prefetchToOne(relationship, of: owners, asFaults: asFaults)
                reached += level
            }
        }
        for object in reached where object.isLoaded && !object.hasChanges {
            prefetchedRows[object.objectID] = PrefetchedRow(object)
        }
    }

    /// The destinations of a to-one, with the ones that are faults read in batches by key.
    private func prefetchToOne(_ relationship: RelationshipDescription, of owners: [ManagedObject], asFaults: Bool) throws(ContextError) -> [ManagedObject] {
        var seen: Set<ObjectID> = []
        let destinations = owners.compactMap { loadedDestinationID(of: $0, slot: relationship.slot) }
            .filter { seen.insert($0).inserted }
            .map(object(with:))
        let faults = destinations.filter { !$0.isLoaded && $0.objectID.primaryKey != nil }
        for entity in Set(faults.map(\.entity.number)).sorted() {
            guard let description = store.entity(number: entity) else { continue }
            let keys = faults.filter { $0.entity.number == entity }.compactMap(\.objectID.primaryKey)
            for chunk in KeyParameters.runs(keys) {
                let sql = SQLFragment(
                    sql: "SELECT \(description.selectColumns) FROM \(description.tableName) t0 WHERE t0.Z_PK IN (\(KeyParameters.placeholders(chunk.count)))",
                    arguments: chunk.map(\.databaseValue))
                _ = try fetchRows(sql, of: description, asFaults: asFaults)
            }
        }
        return destinations
    }

    /// The destinations of a to-many, read for every owner that has not loaded them yet, in one
    /// query per chunk of owners (ordered by owner, then by the relationship's order).
    private func prefetchToMany(_ relationship: RelationshipDescription, of owners: [ManagedObject], asFaults: Bool) throws(ContextError) -> [ManagedObject] {
        guard let destination = store.entity(number: relationship.destinationEntityNumber),
              let source = relationship.toManySource(destinationTable: destination.tableName)
        else { return [] }
        var unloaded: [Int64: ManagedObject] = [:]
        var destinations: [ManagedObject] = []
        var seen: Set<ObjectID> = []
        func reached(_ object: ManagedObject) {
            if seen.insert(object.objectID).inserted { destinations.append(object) }
        }
        for owner in owners {
            if !owner.isLoaded { owner.fulfillIfNeeded() }
            guard relationship.slot < owner.relationshipValues.count else { continue }
            switch owner.relationshipValues[relationship.slot] {
            case .unloaded: if let key = owner.objectID.primaryKey { unloaded[key] = owner }
            case .toMany(let list): list.forEach { reached(object(with: $0)) }
            case .toOne: break
            }
        }
        // The owner's key is read after the destination's columns, which the materializer reads.
        let ownerColumn = Int32(destination.tableColumns.count)
        for chunk in KeyParameters.runs(unloaded.keys.sorted()) {
            let sql = SQLFragment(
                sql: "SELECT \(destination.selectColumns), \(source.owner) \(source.from) WHERE \(source.owner) IN (\(KeyParameters.placeholders(chunk.count)))"
                    + " ORDER BY \(source.owner), \(source.order)",
                arguments: chunk.map(\.databaseValue))
            var lists: [Int64: ObjectIDList] = [:]
            var materializer = RowMaterializer(context: self, entity: destination, asFaults: asFaults)
            try forEachRow(sql) { row in
                let object = materializer.object(for: row)
                lists[sqlite3_column_int64(row, ownerColumn), default: ObjectIDList()].append(object.objectID)
                reached(object)
            }
            for key in chunk {
                guard let owner = unloaded[key] else { continue }
                let list = lists[key] ?? ObjectIDList()
                owner.setReadRelationshipValue(.toMany(list), atSlot: relationship.slot)
            }
        }
        return destinations
    }

    /// The to-one destination, read without firing an object fetched as a fault (it stays one).
    private func loadedDestinationID(of object: ManagedObject, slot: Int) -> ObjectID? {
        guard object.isLoaded, slot < object.relationshipValues.count, case .toOne(let id) = object.relationshipValues[slot] else {
            return destinationID(of: object, slot: slot)
        }
        return id
    }
}
