import Foundation
import GRDB
import StoreSchema

/// Reading and deleting the store's persistent history (Core Data's `NSPersistentHistoryChangeRequest`).
extension PersistentStore {
    /// The token of the latest transaction: fetch the history after it later to learn what changed
    /// from now on. `nil` when the store has no transaction yet.
    public func currentHistoryToken() throws(StoreError) -> HistoryToken? {
        try readingHistory { db in
            try Int64.fetchOne(db, sql: "SELECT max(Z_PK) FROM ATRANSACTION").map { HistoryToken(storeIdentifier: identifier, transactionNumber: $0) }
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
        return try readingHistory { db in
            var after: Int64 = 0
            if let token {
                guard token.storeIdentifier == identifier else { throw HistoryError.tokenOfAnotherStore(token) }
                let kept = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM ATRANSACTION WHERE Z_PK = ?)", arguments: [token.transactionNumber])
                if token.transactionNumber > 0, kept != true { throw HistoryError.expired(token) }
                after = token.transactionNumber
            }
            return try readTransactions(after: after, entityNames: entityNames, author: author, filter: filter, isIncluded: isIncluded, db)
        }
    }

    /// The transactions saved after `date`, oldest first; filtered as by
    /// ``fetchHistory(after:entityNames:author:matching:where:)``.
    public func fetchHistory(
        after date: Date, entityNames: Set<String>? = nil, author: String? = nil, matching predicate: ObjectPredicate? = nil,
        where isIncluded: ((HistoryChange) -> Bool)? = nil
    ) throws(StoreError) -> [HistoryTransaction] {
        let filter = try Self.changeFilter(predicate)
        return try readingHistory { db in
            let after = try Int64.fetchOne(
                db, sql: "SELECT ifnull(max(Z_PK), 0) FROM ATRANSACTION WHERE ZTIMESTAMP <= ?", arguments: [date.timeIntervalSinceReferenceDate]) ?? 0
            return try readTransactions(after: after, entityNames: entityNames, author: author, filter: filter, isIncluded: isIncluded, db)
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
        let first = try readingHistory { db in
            try Int64.fetchOne(
                db, sql: "SELECT ifnull(max(Z_PK), 0) + 1 FROM ATRANSACTION WHERE ZTIMESTAMP < ?", arguments: [date.timeIntervalSinceReferenceDate]) ?? 0
        }
        try deleteHistory(beforeTransaction: first)
    }

    /// Deletes every transaction numbered below `number`, and their changes: always a prefix of
    /// the history, so that a kept token means nothing before it is needed.
    private func deleteHistory(beforeTransaction number: Int64) throws(StoreError) {
        guard tracksHistory else { throw .history(.notTracked) }
        do {
            try database.write { db in
                try db.execute(sql: "DELETE FROM ACHANGE WHERE ZTRANSACTIONID < ?", arguments: [number])
                try db.execute(sql: "DELETE FROM ATRANSACTION WHERE Z_PK < ?", arguments: [number])
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
    func externalTransactions(_ db: Database) throws -> [HistoryTransaction] {
        let after = historyCursor.withLock { $0.lastTransaction }
        let transactions = try readTransactions(after: after, entityNames: nil, author: nil, filter: nil, isIncluded: nil, db)
        return historyCursor.withLock { cursor in
            let external = transactions.filter { !cursor.own.contains($0.transactionNumber) }
            cursor.lastTransaction = max(cursor.lastTransaction, transactions.last?.transactionNumber ?? 0)
            cursor.own = cursor.own.filter { $0 > cursor.lastTransaction }
            return external
        }
    }

    /// Transactions numbered above `after` with their changes, filtered.
    private func readTransactions(
        after: Int64, entityNames: Set<String>?, author: String?, filter: HistoryChangeFilter?, isIncluded: ((HistoryChange) -> Bool)?,
        _ db: Database
    ) throws -> [HistoryTransaction] {
        let entityNumbers = entityNames.map { names in
            Set(names.compactMap { entity(named: $0)?.subtreeNumbers }.joined())
        }
        var transactions: [HistoryTransaction] = []
        var positions: [Int64: Int] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT t.Z_PK, t.ZTIMESTAMP, ifnull(a.ZNAME, t.ZAUTHOR), ifnull(c.ZNAME, t.ZCONTEXTNAME),
                   ifnull(b.ZNAME, t.ZBUNDLEID), ifnull(p.ZNAME, t.ZPROCESSID)
            FROM ATRANSACTION t
            LEFT JOIN ATRANSACTIONSTRING a ON a.Z_PK = t.ZAUTHORTS LEFT JOIN ATRANSACTIONSTRING c ON c.Z_PK = t.ZCONTEXTNAMETS
            LEFT JOIN ATRANSACTIONSTRING b ON b.Z_PK = t.ZBUNDLEIDTS LEFT JOIN ATRANSACTIONSTRING p ON p.Z_PK = t.ZPROCESSIDTS
            WHERE t.Z_PK > ? ORDER BY t.Z_PK
            """, arguments: [after])
        while let row = try rows.next() {
            let transactionAuthor: String? = row[2]
            if let author, transactionAuthor != author { continue }
            let number: Int64 = row[0]
            positions[number] = transactions.count
            transactions.append(HistoryTransaction(
                token: HistoryToken(storeIdentifier: identifier, transactionNumber: number),
                timestamp: Date(timeIntervalSinceReferenceDate: row[1] ?? 0), author: transactionAuthor, contextName: row[3],
                bundleID: row[4], processID: row[5], changes: []))
        }
        let tombstones = HistorySchema.tombstoneColumnList(tombstoneColumns)
        let changes = try Row.fetchCursor(db, sql: """
            SELECT ZTRANSACTIONID, Z_PK, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS\(tombstones) FROM ACHANGE
            WHERE ZTRANSACTIONID > ? ORDER BY ZTRANSACTIONID, Z_PK
            """, arguments: [after])
        while let row = try changes.next() {
            guard let position = positions[row[0]], let type = HistorySchema.ChangeType(rawValue: row[2]) else { continue }
            let entityNumber: Int = row[3]
            if let entityNumbers, !entityNumbers.contains(entityNumber) { continue }
            var change = HistoryChange(
                changeID: row[1], changeType: type, changedObjectID: objectID(key: .permanent(row[4]), entityNumber: entityNumber),
                updatedProperties: nil)
            if let entity = entity(number: entityNumber) {
                switch type {
                case .update:
                    let columns: Data? = row[5]
                    change.updatedProperties = columns.flatMap { historyColumns(of: entity).properties(in: $0) }
                case .delete:
                    let layout = historyTombstones(of: entity)
                    if !layout.isEmpty { change.tombstone = layout.tombstone((0..<min(layout.attributes.count, tombstoneColumns)).map { row[6 + $0] }) }
                case .insert:
                    break
                }
            }
            if let filter, !filter.matches(change, of: transactions[position]) { continue }
            if let isIncluded, !isIncluded(change) { continue }
            transactions[position].changes.append(change)
        }
        if entityNames != nil || filter != nil || isIncluded != nil { transactions.removeAll { $0.changes.isEmpty } }
        return transactions
    }

    /// Runs `body` on a reader, with every error typed.
    private func readingHistory<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        guard tracksHistory else { throw .history(.notTracked) }
        do {
            return try database.read(body)
        } catch let error as HistoryError {
            throw .history(error)
        } catch {
            throw .database(message: "\(error)")
        }
    }
}
