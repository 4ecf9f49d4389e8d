extension PersistentStore {
    /// Writes a save's changes in one transaction of the store's engine, the calling thread
    /// waiting for it.
    func write(_ changes: SaveChanges) throws -> SaveWriter.Result {
        try engine.write { transaction in try SaveWriter.write(changes, store: self, in: SaveTransaction(transaction, store: self)) }
    }

    /// Writes a save's changes in one transaction of the store's engine, off the caller's isolation.
    func write(_ changes: SaveChanges) async throws -> SaveWriter.Result {
        try await engine.write { transaction in try SaveWriter.write(changes, store: self, in: SaveTransaction(transaction, store: self)) }
    }
}
