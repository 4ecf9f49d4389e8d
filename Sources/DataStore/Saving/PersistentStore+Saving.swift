import GRDB

extension PersistentStore {
    /// Writes a save's changes in one transaction of the store's engine, the calling thread
    /// waiting for it.
    func write(_ changes: SaveChanges) throws -> SaveWriter.Result {
        switch engine {
        case .sqlite(let database):
            try database.write { db in try SaveWriter.write(changes, store: self, db) }
        case .server(let server):
            try server.writeWaiting { transaction in try SaveWriter.write(changes, store: self, transaction) }
        }
    }

    /// Writes a save's changes in one transaction of the store's engine, off the caller's isolation.
    func write(_ changes: SaveChanges) async throws -> SaveWriter.Result {
        switch engine {
        case .sqlite(let database):
            try await database.write { db in try SaveWriter.write(changes, store: self, db) }
        case .server(let server):
            try await server.write { transaction in try SaveWriter.write(changes, store: self, transaction) }
        }
    }
}
