import GRDB

/// Changes other processes save, on an engine that notices their commits (a server). Each save
/// writes its history transaction, and the engine tells the store as it commits; the store then
/// reads the history after the last transaction it delivered, so a notice missed while a
/// connection was down costs nothing: the next reading finds the transactions.
extension PersistentStore {
    /// Asks the engine for other processes' commits, delivering each as `checkForExternalChanges()` would.
    func observeCommits() {
        engine.observeCommits(toStore: identifier) { [weak self] number in
            guard let self else { return }
            // A burst of saves is read in one go: the notices of those read since are passed over.
            if let number, number <= historyCursor.withLock({ $0.lastTransaction }) { return }
            _ = try? await deliverNoticedChanges()
        }
    }

    /// Publishes the transactions other processes committed since the last delivered one; whether
    /// there were any.
    func deliverNoticedChanges() async throws -> Bool {
        guard observesCommits else { return false }
        let after = historyCursor.withLock { $0.lastTransaction }
        let queries = historyQueries
        let transactionRows = try await engine.rows(queries.transactions, arguments: [after.databaseValue])
        let changeRows = try await engine.rows(queries.changes, arguments: [after.databaseValue])
        let read = transactions(from: transactionRows, changes: changeRows, entityNames: nil, author: nil, filter: nil, isIncluded: nil)
        return publishInOrder(read)
    }

    /// `deliverNoticedChanges()`, the calling thread waiting for the engine.
    func deliverNoticedChangesWaiting() throws -> Bool {
        let after = historyCursor.withLock { $0.lastTransaction }
        let read = try engine.read { transaction in
            try readTransactions(after: after, entityNames: nil, author: nil, filter: nil, isIncluded: nil) { try transaction.rows($0, arguments: $1) }
        }
        return publishInOrder(read)
    }

    /// Publishes the transactions of `read` not delivered yet, one reading at a time, so that two
    /// readings at once (a notice's, a call of `checkForExternalChanges()`) deliver each
    /// transaction once and in order. Recursive: an observer may check for changes itself.
    ///
    /// An engine that notices commits numbers transactions one after another in the order they
    /// commit, so a number missing after the last delivered one is a transaction deleted
    /// (`deleteHistory(before:)`) before this store read it: what it changed is unknown, and
    /// observers first get a change set whose `isExternalWrite` is set, as for a write with no
    /// history.
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
