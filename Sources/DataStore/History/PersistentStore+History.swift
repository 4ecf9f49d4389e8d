import Foundation
import GRDB
import StoreSchema

/// Reading and deleting the store's persistent history (Core Data's `NSPersistentHistoryChangeRequest`).
extension PersistentStore {
    /// The token of the latest transaction: fetch the history after it later to learn what changed
    /// from now on. `nil` when the store has no transaction yet.
    public func currentHistoryToken() throws(StoreError) -> HistoryToken? {
        try readingHistory { read in
            try read("SELECT max(\(.Z_PK)) FROM \(.ATRANSACTION)", []).firstInteger.map { HistoryToken(storeIdentifier: identifier, transactionNumber: $0) }
        }
    }

    /// The transactions after `token` (every kept one when `nil`), oldest first, with their changes.
    ///
    ///     let deletes = try store.fetchHistory(after: token, matching: ObjectPredicate(format: "changeType == 2"))
    ///
    /// - Parameters:
    ///   - token: where to start: the token of the last transaction read, or `nil` for all.
    ///   - entityNames: keep only changes of these entities and their subentities.
    ///   - author: keep only transactions of this `transactionAuthor`.
    ///   - predicate: keep only the changes it matches, in the predicate language; its keys are
    ///     those of a change (`changeType`, `changedObjectID`, `entityName`, `updatedProperties`,
    ///     `tombstone.NAME`) and of its transaction (`transaction.author`, `transaction.timestamp`…).
    ///     Another key throws `HistoryError.invalidPredicate`.
    ///   - isIncluded: keep only the changes it accepts.
    ///
    /// Transactions left without changes by the filters are left out. A token whose transaction
    /// was deleted throws `HistoryError.expired`: the history since then is incomplete.
    public func fetchHistory(
        after token: HistoryToken?, entityNames: Set<String>? = nil, author: String? = nil, matching predicate: ObjectPredicate? = nil,
        where isIncluded: ((HistoryChange) -> Bool)? = nil
    ) throws(StoreError) -> [HistoryTransaction] {
        let filter = try Self.changeFilter(predicate)
        return try readingHistory { read in
            var after: Int64 = 0
            if let token {
                guard token.storeIdentifier == identifier else { throw HistoryError.tokenOfAnotherStore(token) }
                let kept = try read("SELECT count(*) FROM \(.ATRANSACTION) WHERE \(.Z_PK) = ?", [token.transactionNumber.databaseValue]).firstInteger
                if token.transactionNumber > 0, kept != 1 { throw HistoryError.expired(token) }
                after = token.transactionNumber
            }
            return try readTransactions(after: after, entityNames: entityNames, author: author, filter: filter, isIncluded: isIncluded, read: read)
        }
    }

    /// The transactions saved after `date`, oldest first; filtered as by
    /// ``fetchHistory(after:entityNames:author:matching:where:)``.
    public func fetchHistory(
        after date: Date, entityNames: Set<String>? = nil, author: String? = nil, matching predicate: ObjectPredicate? = nil,
        where isIncluded: ((HistoryChange) -> Bool)? = nil
    ) throws(StoreError) -> [HistoryTransaction] {
        let filter = try Self.changeFilter(predicate)
        return try readingHistory { read in
            let after = try read("SELECT max(\(.Z_PK)) FROM \(.ATRANSACTION) WHERE \(.ZTIMESTAMP) <= ?", [date.timeIntervalSinceReferenceDate.databaseValue]).firstInteger ?? 0
            return try readTransactions(after: after, entityNames: entityNames, author: author, filter: filter, isIncluded: isIncluded, read: read)
        }
    }

    private static func changeFilter(_ predicate: ObjectPredicate?) throws(StoreError) -> HistoryChangeFilter? {
        guard let predicate else { return nil }
        do {
            return try HistoryChangeFilter(predicate)
        } catch {
            throw .history(error)
        }
    }

    /// Deletes the transactions before `token`'s, which stays, so the token stays valid; tokens of
    /// deleted transactions expire.
    public func deleteHistory(before token: HistoryToken) throws(StoreError) {
        guard token.storeIdentifier == identifier else { throw .history(.tokenOfAnotherStore(token)) }
        try deleteHistory(beforeTransaction: token.transactionNumber)
    }

    /// Deletes the transactions saved before `date`.
    public func deleteHistory(before date: Date) throws(StoreError) {
        let last = try readingHistory { read in
            try read("SELECT max(\(.Z_PK)) FROM \(.ATRANSACTION) WHERE \(.ZTIMESTAMP) < ?", [date.timeIntervalSinceReferenceDate.databaseValue]).firstInteger ?? 0
        }
        try deleteHistory(beforeTransaction: last + 1)
    }

    /// Deletes every transaction numbered below `number`, and their changes: always a prefix of
    /// the history, so that a kept token means nothing before it is needed.
    private func deleteHistory(beforeTransaction number: Int64) throws(StoreError) {
        guard tracksHistory else { throw .history(.notTracked) }
        let statements: [SQL] = ["DELETE FROM \(.ACHANGE) WHERE \(.ZTRANSACTIONID) < ?", "DELETE FROM \(.ATRANSACTION) WHERE \(.Z_PK) < ?"]
        do {
            try engine.write { transaction in
                for sql in statements { _ = try transaction.execute(sql, arguments: [number.databaseValue]) }
            }
        } catch {
            throw .database(message: "\(error)")
        }
    }

    /// Notes a transaction a save of this store wrote, inside its database transaction, so that it
    /// is never delivered as another process's.
    func noteOwnHistoryTransaction(_ number: Int64) {
        historyCursor.withLock { _ = $0.own.insert(number) }
    }

    /// Forgets a noted transaction that did not commit: its number goes to the next save.
    func forgetOwnHistoryTransaction(_ number: Int64) {
        historyCursor.withLock { _ = $0.own.remove(number) }
    }

    /// The transactions other connections committed since the last delivered one, on the writer.
    func externalTransactions(_ transaction: any EngineTransaction) throws -> [HistoryTransaction] {
        let after = historyCursor.withLock { $0.lastTransaction }
        return advanceCursor(past: try readTransactions(after: after, entityNames: nil, author: nil, filter: nil, isIncluded: nil) {
            try transaction.rows($0, arguments: $1)
        })
    }

    /// Moves the history cursor past `transactions`, read after it; those other connections or
    /// processes wrote that no earlier reading delivered.
    func advanceCursor(past transactions: [HistoryTransaction]) -> [HistoryTransaction] {
        historyCursor.withLock { cursor in
            // Another reading may have delivered some meanwhile.
            let external = transactions.filter { $0.transactionNumber > cursor.lastTransaction && !cursor.own.contains($0.transactionNumber) }
            cursor.lastTransaction = max(cursor.lastTransaction, transactions.last?.transactionNumber ?? 0)
            cursor.own = cursor.own.filter { $0 > cursor.lastTransaction }
            return external
        }
    }

    /// Transactions numbered above `after` with their changes, filtered; `read` runs a query.
    func readTransactions(
        after: Int64, entityNames: Set<String>?, author: String?, filter: HistoryChangeFilter?, isIncluded: ((HistoryChange) -> Bool)?,
        read: (SQL, [DatabaseValue]) throws -> ReadRows
    ) throws -> [HistoryTransaction] {
        let queries = historyQueries
        return transactions(
            from: try read(queries.transactions, [after.databaseValue]), changes: try read(queries.changes, [after.databaseValue]),
            entityNames: entityNames, author: author, filter: filter, isIncluded: isIncluded)
    }

    /// The history's two queries: the transactions numbered above the argument, and their changes.
    var historyQueries: (transactions: SQL, changes: SQL) {
        let tombstones = SQL.tombstoneColumns(tombstoneColumns)
        // Core Data's layout keys names in `ATRANSACTIONSTRING`; a layout without it (a
        // server's, `HistorySchema`) keeps them in the transaction's own columns.
        return (
            """
            SELECT t.\(.Z_PK), t.\(.ZTIMESTAMP), COALESCE(a.\(.ZNAME), t.\(.ZAUTHOR)), COALESCE(c.\(.ZNAME), t.\(.ZCONTEXTNAME)),
                   COALESCE(b.\(.ZNAME), t.\(.ZBUNDLEID)), COALESCE(p.\(.ZNAME), t.\(.ZPROCESSID))
            FROM \(.ATRANSACTION) t
            LEFT JOIN \(.ATRANSACTIONSTRING) a ON a.\(.Z_PK) = t.\(.ZAUTHORTS) LEFT JOIN \(.ATRANSACTIONSTRING) c ON c.\(.Z_PK) = t.\(.ZCONTEXTNAMETS)
            LEFT JOIN \(.ATRANSACTIONSTRING) b ON b.\(.Z_PK) = t.\(.ZBUNDLEIDTS) LEFT JOIN \(.ATRANSACTIONSTRING) p ON p.\(.Z_PK) = t.\(.ZPROCESSIDTS)
            WHERE t.\(.Z_PK) > ? ORDER BY t.\(.Z_PK)
            """,
            """
            SELECT \(.ZTRANSACTIONID), \(.Z_PK), \(.ZCHANGETYPE), \(.ZENTITY), \(.ZENTITYPK), \(.ZCOLUMNS)\(tombstones) FROM \(.ACHANGE)
            WHERE \(.ZTRANSACTIONID) > ? ORDER BY \(.ZTRANSACTIONID), \(.Z_PK)
            """
        )
    }

    /// The transactions of the rows of `historyQueries`, with their changes, filtered.
    func transactions(
        from transactionRows: ReadRows, changes changeRows: ReadRows,
        entityNames: Set<String>?, author: String?, filter: HistoryChangeFilter?, isIncluded: ((HistoryChange) -> Bool)?
    ) -> [HistoryTransaction] {
        let entityNumbers = entityNames.map { names in
            Set(names.compactMap { entity(named: $0)?.subtreeNumbers }.joined())
        }
        var transactions: [HistoryTransaction] = []
        var positions: [Int64: Int] = [:]
        transactionRows.forEach { row in
            let transactionAuthor = String.fromDatabaseValue(row.databaseValue(2))
            if let author, transactionAuthor != author { return }
            let number = row.int64(0)
            positions[number] = transactions.count
            transactions.append(HistoryTransaction(
                token: HistoryToken(storeIdentifier: identifier, transactionNumber: number),
                timestamp: Date(timeIntervalSinceReferenceDate: Double.fromDatabaseValue(row.databaseValue(1)) ?? 0), author: transactionAuthor,
                contextName: String.fromDatabaseValue(row.databaseValue(3)), bundleID: String.fromDatabaseValue(row.databaseValue(4)),
                processID: String.fromDatabaseValue(row.databaseValue(5)), changes: []))
        }
        let tombstoneColumns = changeRows.columnCount - 6
        changeRows.forEach { row in
            guard let position = positions[row.int64(0)], let type = HistorySchema.ChangeType(rawValue: Int(row.int64(2))) else { return }
            let entityNumber = Int(row.int64(3))
            if let entityNumbers, !entityNumbers.contains(entityNumber) { return }
            var change = HistoryChange(
                changeID: row.int64(1), changeType: type, changedObjectID: objectID(key: .permanent(row.int64(4)), entityNumber: entityNumber),
                updatedProperties: nil)
            if let entity = entity(number: entityNumber) {
                switch type {
                case .update:
                    let columns = Data.fromDatabaseValue(row.databaseValue(5))
                    change.updatedProperties = columns.flatMap { historyColumns(of: entity).properties(in: $0) }
                case .delete:
                    let layout = historyTombstones(of: entity)
                    if !layout.isEmpty {
                        let stored = (0..<max(0, min(layout.attributes.count, tombstoneColumns))).map { row.databaseValue(Int32(6 + $0)) }
                        change.tombstone = layout.tombstone(stored.map(engine.valueOfAnyStorageClass))
                    }
                case .insert:
                    break
                }
            }
            if let filter, !filter.matches(change, of: transactions[position]) { return }
            if let isIncluded, !isIncluded(change) { return }
            transactions[position].changes.append(change)
        }
        if entityNames != nil || filter != nil || isIncluded != nil { transactions.removeAll { $0.changes.isEmpty } }
        return transactions
    }

    /// Runs `body` with the store's queries, which see one snapshot of the store, the calling
    /// thread waiting; with every error typed.
    private func readingHistory<T>(_ body: ((SQL, [DatabaseValue]) throws -> ReadRows) throws -> T) throws(StoreError) -> T {
        guard tracksHistory else { throw .history(.notTracked) }
        do {
            return try engine.read { transaction in try body { try transaction.rows($0, arguments: $1) } }
        } catch let error as HistoryError {
            throw .history(error)
        } catch {
            throw .database(message: "\(error)")
        }
    }
}
