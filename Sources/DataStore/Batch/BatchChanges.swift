import GRDB

/// What one batch request changed, row by row: recorded in the store's history inside the
/// request's transaction, then published as a change set like any save's.
struct BatchChanges {
    var inserted: [ObjectID] = []
    /// Updated objects with the properties that changed, each object once.
    var updated: [(id: ObjectID, properties: Set<String>)] = []
    var deleted: [ObjectID] = []
    /// The values the history keeps of deleted objects, read before their rows went.
    var tombstones: [ObjectID: [DatabaseValue]] = [:]

    /// Adds the objects whose derived attributes the store's triggers recomputed.
    mutating func add(derived reports: [DerivedValueLog.Report], store: PersistentStore) {
        guard !reports.isEmpty else { return }
        let gone = Set(deleted), new = Set(inserted)
        var positions = Dictionary(updated.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        for report in reports {
            guard let entity = store.entity(number: report.entityNumber), entity.attribute(named: report.attribute) != nil else { continue }
            let id = store.objectID(key: .permanent(report.primaryKey), entityNumber: report.entityNumber)
            guard !gone.contains(id), !new.contains(id) else { continue }
            if let position = positions[id] {
                updated[position].properties.insert(report.attribute)
            } else {
                positions[id] = updated.count
                updated.append((id, [report.attribute]))
            }
        }
    }

    /// Records the changes as one transaction of the store's history; returns its number.
    func writeHistory(author: String?, contextName: String?, store: PersistentStore, _ db: Database) throws -> Int64 {
        var history = HistoryRecorder()
        for id in inserted { history.record(.insert, entityNumber: id.entityNumber, key: id.primaryKey ?? 0) }
        for (id, properties) in updated {
            history.recordUpdate(of: id.scope.entity, key: id.primaryKey ?? 0, properties: properties, layout: store.historyColumns(of: id.scope.entity))
        }
        for id in deleted { history.record(.delete, entityNumber: id.entityNumber, key: id.primaryKey ?? 0, tombstone: tombstones[id] ?? []) }
        return try history.write(author: author, contextName: contextName, tombstoneColumns: store.tombstoneColumns, in: db)
    }

    var changeSet: ChangeSet {
        var changes = ChangeSet(insertedIDs: inserted, deletedIDs: deleted)
        changes.updated = Dictionary(updated.map { ($0.id, $0.properties) }, uniquingKeysWith: { first, second in first.union(second) })
        return changes
    }
}
