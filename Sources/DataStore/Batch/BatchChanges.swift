import GRDB

/// What one batch request changed, row by row: recorded in the store's history inside the
/// request's transaction, then published as a change set like any save's.
struct BatchChanges {
    var inserted: [ObjectID] = []
    /// The objects the request updated, with the properties that changed, each object once.
    var updated: [(id: ObjectID, properties: Set<String>)] = []
    var deleted: [ObjectID] = []
    /// The values the history keeps of deleted objects, read before their rows went.
    var tombstones: [ObjectID: [DatabaseValue]] = [:]
    /// On a server, what computes the derived values the request changes, when the request had
    /// to read something before it wrote (the owners of the rows a delete removes).
    var derivedValues: DerivedValueComputation?

    /// Objects the request did not write whose derived values changed with its rows.
    var derivedUpdated: [(id: ObjectID, properties: Set<String>)] = []

    /// Adds the objects whose derived attributes the store recomputed.
    mutating func add(derived reports: [DerivedValueLog.Report], store: PersistentStore) {
        guard !reports.isEmpty else { return }
        let gone = Set(deleted), new = Set(inserted)
        let positions = Dictionary(updated.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        var derivedPositions = Dictionary(derivedUpdated.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        for report in reports {
            guard let entity = store.entity(number: report.entityNumber), entity.attribute(named: report.attribute) != nil else { continue }
            let id = store.objectID(key: .permanent(report.primaryKey), entityNumber: report.entityNumber)
            guard !gone.contains(id), !new.contains(id) else { continue }
            if let position = positions[id] {
                updated[position].properties.insert(report.attribute)
            } else if let position = derivedPositions[id] {
                derivedUpdated[position].properties.insert(report.attribute)
            } else {
                derivedPositions[id] = derivedUpdated.count
                derivedUpdated.append((id, [report.attribute]))
            }
        }
    }

    /// On a server, which has no triggers, computes the derived values the request changed and
    /// adds the objects whose values changed.
    mutating func computeDerivedValues(store: PersistentStore, in transaction: SaveTransaction) throws {
        guard !store.derivedAttributeRules.isEmpty else { return }
        var derived = derivedValues ?? DerivedValueComputation(store: store, transaction: transaction)
        let written = { (id: ObjectID, properties: Set<String>) in
            DerivedValueComputation.WrittenRow(entity: id.scope.entity, key: id.primaryKey ?? 0, changedKeys: properties)
        }
        derived.inserted = inserted.map { written($0, []) }
        derived.updated = updated.map(written)
        add(derived: try derived.write(), store: store)
    }

    /// The changes as one transaction of the store's history.
    func history(store: PersistentStore) -> HistoryRecorder {
        var history = HistoryRecorder()
        for id in inserted { history.record(.insert, entityNumber: id.entityNumber, key: id.primaryKey ?? 0) }
        for (id, properties) in updated + derivedUpdated {
            history.recordUpdate(of: id.scope.entity, key: id.primaryKey ?? 0, properties: properties, layout: store.historyColumns(of: id.scope.entity))
        }
        for id in deleted { history.record(.delete, entityNumber: id.entityNumber, key: id.primaryKey ?? 0, tombstone: tombstones[id] ?? []) }
        return history
    }

    var changeSet: ChangeSet {
        var changes = ChangeSet(insertedIDs: inserted, deletedIDs: deleted)
        changes.updated = Dictionary((updated + derivedUpdated).map { ($0.id, $0.properties) }, uniquingKeysWith: { first, second in first.union(second) })
        return changes
    }
}
