import GRDB

/// Changes other processes save to a server's store. Each save writes its history transaction and
/// notifies the store's channel in the same database transaction; every store listening on the
/// channel then reads the history after the last transaction it delivered, so a notification
/// missed while a connection was down costs nothing: the next reading finds the transactions.
extension PersistentStore {
    /// The channel a server's store is notified on: one per store.
    var commitChannel: String {
        "datamodelkit_" + identifier.lowercased().filter { $0.isLetter || $0.isNumber }
    }

    /// Listens on the server for other processes' commits, delivering each as `checkForExternalChanges()` would.
    func listenForServerChanges(on server: any ServerDatabase) {
        server.listen(to: commitChannel) { [weak self] payload in
            guard let self else { return }
            // A burst of saves is read in one go: the notifications of those read since are
            // passed over.
            if let number = payload.flatMap(Int64.init), number <= historyCursor.withLock({ $0.lastTransaction }) { return }
            _ = try? await deliverServerChanges()
        }
    }

    /// Publishes the transactions other processes committed since the last delivered one; whether
    /// there were any.
    func deliverServerChanges() async throws -> Bool {
        guard let server, tracksHistory else { return false }
        let after = historyCursor.withLock { $0.lastTransaction }
        let queries = historyQueries
        let transactionRows = try await server.rows(queries.transactions, arguments: [after.databaseValue])
        let changeRows = try await server.rows(queries.changes, arguments: [after.databaseValue])
        let read = transactions(from: transactionRows, changes: changeRows, entityNames: nil, author: nil, filter: nil, isIncluded: nil)
        return publishInOrder(read)
    }

    /// `deliverServerChanges()`, the calling thread waiting for the server.
    func deliverServerChangesWaiting(on server: any ServerDatabase) throws -> Bool {
        guard tracksHistory else { return false }
        let after = historyCursor.withLock { $0.lastTransaction }
        let read = try readTransactions(after: after, entityNames: nil, author: nil, filter: nil, isIncluded: nil, read: server.rowsWaiting)
        return publishInOrder(read)
    }

    /// Publishes the transactions of `read` not delivered yet, one reading at a time, so that two
    /// readings at once (the listener's, a call of `checkForExternalChanges()`) deliver each
    /// transaction once and in order. Recursive: an observer may check for changes itself.
    private func publishInOrder(_ read: [HistoryTransaction]) -> Bool {
        deliveries.withLock {
            let transactions = advanceCursor(past: read)
            for transaction in transactions { publish(transaction.changeSet) }
            return !transactions.isEmpty
        }
    }
}
