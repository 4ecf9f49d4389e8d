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
    ///
    /// A server numbers transactions one after another in the order they commit, so a number
    /// missing after the last delivered one is a transaction deleted (`deleteHistory(before:)`)
    /// before this store read it: what it changed is unknown, and observers first get a change
    /// set whose `isExternalWrite` is set, as for a write with no history.
    private func publishInOrder(_ read: [HistoryTransaction]) -> Bool {
        deliveries.withLock {
            let last = historyCursor.withLock { $0.lastTransaction }
            let numbers = read.map(\.transactionNumber).filter { $0 > last }.sorted()
            let skipsSome = zip([last] + numbers, numbers).contains { $1 != $0 + 1 }
            let transactions = advanceCursor(past: read)
            if skipsSome { publish(ChangeSet(isExternalWrite: true)) }
            for transaction in transactions { publish(transaction.changeSet) }
            return skipsSome || !transactions.isEmpty
        }
    }
}
