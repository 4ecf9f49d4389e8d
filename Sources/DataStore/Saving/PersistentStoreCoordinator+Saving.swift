/// A save across the stores of a coordinator: each store's objects in a transaction of that store.
///
/// The transactions are nested, one store's holding the next's, so that a save failing in any
/// store before the last commit writes nothing. They nest in the order of the stores'
/// identifiers, the same for every coordinator of the same stores, so that two saves never wait
/// for each other's stores in opposite orders. As in Core Data, stores commit one after the
/// other: a commit that fails after another store's committed fails the save with
/// `commitOutcomeUnknown`, never as a save that wrote nothing.
extension PersistentStoreCoordinator {
    /// Writes a save's changes, the calling thread waiting.
    func write(_ changes: SaveChanges) throws -> SaveWriter.Result {
        if let onlyStore { return try onlyStore.write(changes) }
        let parts = try split(changes)
        if parts.count == 1, let part = parts.first { return try part.store.write(part.changes) }
        return combine(try Self.writeNested(Self.nestingOrder(parts)[...]), of: changes, parts: parts)
    }

    /// Writes a save's changes off the caller's isolation.
    func write(_ changes: SaveChanges) async throws -> SaveWriter.Result {
        if let onlyStore { return try await onlyStore.write(changes) }
        let parts = try split(changes)
        if parts.count == 1, let part = parts.first { return try await part.store.write(part.changes) }
        // Nested transactions of several engines block on each other: on a thread of their own.
        let nested = Self.nestingOrder(parts)
        return combine(try await onItsOwnThread { () throws(any Error) in try Self.writeNested(nested[...]) }, of: changes, parts: parts)
    }

    /// One store's part of a save.
    struct StorePart: Sendable {
        let store: PersistentStore
        var changes: SaveChanges
        /// The position in the whole save's `inserted` of each of this part's inserted rows.
        var insertedPositions: [Int]
    }

    /// The save's rows by the store holding each, in the order of the coordinator's stores;
    /// throws `Abort.validation` for a relationship between objects of two stores, which no
    /// store can hold (Core Data's 133010).
    private func split(_ changes: SaveChanges) throws -> [StorePart] {
        var rows: [ObjectIdentifier: (inserted: [SaveChanges.Row], positions: [Int], updated: [SaveChanges.Row], deleted: [SaveChanges.Row])] = [:]
        var failures: [ValidationFailure] = []
        func store(of row: SaveChanges.Row) -> PersistentStore {
            persistentStore(of: row.objectID) ?? persistentStores[0]
        }
        func checkRelationships(of row: SaveChanges.Row, in store: PersistentStore) {
            for (slot, value) in row.relationships.enumerated() {
                let destinations: [ObjectID] = switch value {
                case .toOne(let id?): [id]
                case .toMany(let list): list.ids
                case .toOne(nil), .unloaded: []
                }
                if let foreign = destinations.first(where: { persistentStore(of: $0) !== store }) {
                    failures.append(.crossStoreRelationship(row.objectID, relationship: row.entity.relationships[slot].name, destination: foreign))
                }
            }
        }
        for (position, row) in changes.inserted.enumerated() {
            let holder = store(of: row)
            checkRelationships(of: row, in: holder)
            rows[ObjectIdentifier(holder), default: ([], [], [], [])].inserted.append(row)
            rows[ObjectIdentifier(holder), default: ([], [], [], [])].positions.append(position)
        }
        for row in changes.updated {
            let holder = store(of: row)
            checkRelationships(of: row, in: holder)
            rows[ObjectIdentifier(holder), default: ([], [], [], [])].updated.append(row)
        }
        for row in changes.deleted {
            rows[ObjectIdentifier(store(of: row)), default: ([], [], [], [])].deleted.append(row)
        }
        if !failures.isEmpty { throw SaveWriter.Abort.validation(failures) }
        return persistentStores.compactMap { store in
            rows[ObjectIdentifier(store)].map { part in
                StorePart(
                    store: store,
                    changes: SaveChanges(
                        inserted: part.inserted, updated: part.updated, deleted: part.deleted, author: changes.author, contextName: changes.contextName),
                    insertedPositions: part.positions)
            }
        }
    }

    /// The parts in the order their transactions nest: by store identifier.
    private static func nestingOrder(_ parts: [StorePart]) -> [StorePart] {
        parts.sorted { $0.store.identifier < $1.store.identifier }
    }

    /// Writes the first part in a transaction of its store that holds the writing of the rest; the
    /// results by store identifier.
    private static func writeNested(_ parts: ArraySlice<StorePart>) throws -> [String: SaveWriter.Result] {
        guard let part = parts.first else { return [:] }
        // The inner stores' results once they committed: an engine that runs a transaction's body
        // again (a server's, after a deadlock) must not write them twice.
        let committedInside = Locked<[String: SaveWriter.Result]?>(nil)
        do {
            return try part.store.engine.write { transaction in
                if committedInside.withLock({ $0 != nil }) {
                    throw CommitOutcomeUnknown(message: "the save's other stores committed before \(part.store.identifier)'s transaction was run again")
                }
                let result = try SaveWriter.write(part.changes, store: part.store, in: SaveTransaction(transaction, store: part.store))
                var results = try writeNested(parts.dropFirst())
                committedInside.withLock { $0 = results }
                results[part.store.identifier] = result
                return results
            }
        } catch let unknown as CommitOutcomeUnknown {
            throw unknown
        } catch {
            guard committedInside.withLock({ $0 != nil }) else { throw error }
            throw CommitOutcomeUnknown(message: "the save's other stores committed, then \(part.store.identifier)'s commit failed: \(error)")
        }
    }

    /// The parts' results as the whole save's: permanent IDs in the order of its inserted rows.
    private func combine(_ results: [String: SaveWriter.Result], of changes: SaveChanges, parts: [StorePart]) -> SaveWriter.Result {
        var keys = [UInt64](repeating: 0, count: changes.inserted.count)
        var ids = changes.inserted.map(\.objectID)
        var derivedValues: [DerivedValueLog.Report] = []
        for part in parts {
            guard let result = results[part.store.identifier] else { continue }
            for (index, position) in part.insertedPositions.enumerated() {
                ids[position] = result.permanentIDs.ids[index]
                if case .temporary(let key) = changes.inserted[position].objectID.key { keys[position] = key }
            }
            derivedValues += result.derivedValues
        }
        return SaveWriter.Result(permanentIDs: PermanentIDs(temporaryKeys: keys, permanent: ids), derivedValues: derivedValues)
    }
}
