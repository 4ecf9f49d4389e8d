import GRDB

/// Batch requests: many rows inserted, updated or deleted in SQL, in one transaction, without
/// objects. Unlike Core Data's, their changes reach objects and lists with no merge code: this
/// context merges them at once, and the store publishes them to its observers as a `ChangeSet`,
/// exactly as a save's, and records them in the persistent history when it keeps one.
extension ObjectContext {
    /// Inserts the request's objects; returns their IDs.
    @discardableResult
    public func execute<Object>(_ request: BatchInsertRequest<Object>) throws(BatchError) -> BatchResult {
        let entity = try batchEntity(named: request.entityName, as: Object.self)
        var writer = BatchInsertWriter<Object>(context: self, entity: entity, source: request.source)
        let changes = try runBatch(in: writer.store) { transaction in try writer.write(transaction) }
        return BatchResult(objectIDs: changes.inserted + changes.updated.map(\.id))
    }

    /// Sets the request's attributes on every matching object; returns the IDs of those changed.
    /// Objects whose derived attributes changed with them are in the published change set and
    /// the history, not in the result.
    @discardableResult
    public func execute<Object>(_ request: BatchUpdateRequest<Object>) throws(BatchError) -> BatchResult {
        let entity = try batchEntity(named: request.entityName, as: Object.self)
        let writer = try BatchUpdateWriter(context: self, entity: entity, request: request)
        return BatchResult(objectIDs: try runBatch(in: writer.store) { transaction in try writer.write(transaction) }.updated.map(\.id))
    }

    /// Deletes the request's objects and applies the delete rules; returns the IDs of every object
    /// deleted.
    @discardableResult
    public func execute(_ request: BatchDeleteRequest) throws(BatchError) -> BatchResult {
        let writer = try BatchDeleteWriter(context: self, target: request.target)
        return BatchResult(objectIDs: try runBatch(in: writer.store) { transaction in try writer.write(transaction) }.deleted)
    }

    private func batchEntity<Object: ManagedObject>(named name: String, as type: Object.Type) throws(BatchError) -> EntityDescription {
        let holder: PersistentStore
        do {
            holder = try storeFetching(name)
        } catch {
            throw .invalidRequest(error)
        }
        guard let entity = holder.entity(named: name) else { throw .invalidRequest(.unknownEntity(name)) }
        guard entity.objectClass is Object.Type else { throw .invalidRequest(.classMismatch(entity: name, type: "\(Object.self)")) }
        return entity
    }

    /// Runs `write` in one transaction of `store`'s engine with the history it calls for, then
    /// merges and publishes what it changed.
    private func runBatch(in store: PersistentStore, _ write: @escaping (SaveTransaction) throws -> BatchChanges) throws(BatchError) -> BatchChanges {
        let (author, contextName) = (transactionAuthor, name)
        let inTransaction = { [store] (transaction: SaveTransaction) throws -> BatchChanges in
            _ = store.derivedValues.take()  // left by an earlier write that rolled back
            var changes = try write(transaction)
            changes.add(derived: store.derivedValues.take(), store: store)
            try changes.computeDerivedValues(store: store, in: transaction)
            if store.tracksHistory {
                let number = try transaction.writeHistory(changes.history(store: store), author: author, contextName: contextName)
                store.noteOwnHistoryTransaction(number)
                // A commit that fails after this frees the number again.
                transaction.onRollback { store.forgetOwnHistoryTransaction(number) }
            }
            return changes
        }
        let changes: BatchChanges
        do {
            changes = try store.engine.write { transaction in try inTransaction(SaveTransaction(transaction, store: store)) }
        } catch let error as BatchError {
            throw error
        } catch let unknown as CommitOutcomeUnknown {
            throw .commitOutcomeUnknown(message: unknown.message)
        } catch {
            throw .database(message: "\(error)")
        }
        var changeSet = changes.changeSet
        changeSet.origin = identifier
        if !changeSet.isEmpty {
            mergeChanges(from: changeSet)
            store.publish(changeSet)
        }
        return changes
    }
}
