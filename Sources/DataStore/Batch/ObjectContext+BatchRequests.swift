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
        return BatchResult(objectIDs: try runBatch { db in try writer.write(db) }.inserted)
    }

    /// Sets the request's attributes on every matching object; returns the IDs of those changed.
    @discardableResult
    public func execute<Object>(_ request: BatchUpdateRequest<Object>) throws(BatchError) -> BatchResult {
        let entity = try batchEntity(named: request.entityName, as: Object.self)
        let writer = try BatchUpdateWriter(context: self, entity: entity, request: request)
        return BatchResult(objectIDs: try runBatch { db in try writer.write(db) }.updated.map(\.id))
    }

    /// Deletes the request's objects and applies the delete rules; returns the IDs of every object
    /// deleted.
    @discardableResult
    public func execute(_ request: BatchDeleteRequest) throws(BatchError) -> BatchResult {
        let writer = try BatchDeleteWriter(context: self, target: request.target)
        return BatchResult(objectIDs: try runBatch { db in try writer.write(db) }.deleted)
    }

    private func batchEntity<Object: ManagedObject>(named name: String, as type: Object.Type) throws(BatchError) -> EntityDescription {
        guard let entity = store.entity(named: name) else { throw .invalidRequest(.unknownEntity(name)) }
        guard entity.objectClass is Object.Type else { throw .invalidRequest(.classMismatch(entity: name, type: "\(Object.self)")) }
        return entity
    }

    /// Runs `write` in one transaction with the history it calls for, then merges and publishes
    /// what it changed.
    private func runBatch(_ write: (Database) throws -> BatchChanges) throws(BatchError) -> BatchChanges {
        var historyTransaction: Int64?
        let changes: BatchChanges
        do {
            changes = try store.database.write { db in
                _ = store.derivedValues.take()  // left by an earlier write that rolled back
                var changes = try write(db)
                changes.add(derived: store.derivedValues.take(), store: store)
                if store.tracksHistory {
                    let number = try changes.writeHistory(author: transactionAuthor, contextName: name, store: store, db)
                    historyTransaction = number
                    store.noteOwnHistoryTransaction(number)
                }
                return changes
            }
        } catch let error as BatchError {
            throw error
        } catch {
            // The commit failed after the history was written: its transaction number is free again.
            if let number = historyTransaction { store.forgetOwnHistoryTransaction(number) }
            throw .database(message: "\(error)")
        }
        let changeSet = changes.changeSet
        if !changeSet.isEmpty {
            mergeChanges(from: changeSet)
            store.publish(changeSet)
        }
        return changes
    }
}
