import Foundation
import GRDB
import StoreSchema

extension HistoryRecorder {
    /// Writes the transaction and its changes in a server's transaction, and returns the
    /// transaction's number: names in the transaction's own text columns, the changes many to a
    /// statement. Keys come from `Z_PRIMARYKEY` rows locked until the commit, so transactions
    /// commit in the order of their numbers, and a reader that has seen one has seen every
    /// earlier one. Deletes keep their preserved values in `tombstoneColumns` columns.
    func write(author: String?, contextName: String?, tombstoneColumns: Int, in transaction: any ServerTransaction, dialect: any SQLDialect) throws -> Int64 {
        for (name, value) in [("transactionAuthor", author), ("name", contextName)] where value?.utf8.contains(0) == true {
            if let refusal = dialect.u0000Refusal { throw HistoryNameRefused(description: "the context's \(name) cannot be stored: \(refusal)") }
        }
        let number = try Self.takeKeys(1, of: HistorySchema.transactionEntity, table: HistorySchema.transactionTable, transaction)
        try transaction.insert(
            into: HistorySchema.transactionTable, columns: ["Z_PK", "Z_ENT", "ZAUTHOR", "ZBUNDLEID", "ZCONTEXTNAME", "ZPROCESSID", "ZTIMESTAMP"],
            values: [
                number.databaseValue, HistorySchema.transactionEntity.databaseValue, author.databaseValue, Self.bundleID.databaseValue,
                contextName.databaseValue, Self.processID.databaseValue, Date().timeIntervalSinceReferenceDate.databaseValue,
            ])
        guard !changes.isEmpty else { return number }
        var key = try Self.takeKeys(Int64(changes.count), of: HistorySchema.changeEntity, table: HistorySchema.changeTable, transaction)
        var values: [DatabaseValue] = []
        values.reserveCapacity(changes.count * (7 + tombstoneColumns))
        for change in changes {
            values += [
                key.databaseValue, HistorySchema.changeEntity.databaseValue, Int64(change.type.rawValue).databaseValue,
                change.entityNumber.databaseValue, change.key.databaseValue, number.databaseValue, change.columns?.databaseValue ?? .null,
            ]
            for index in 0..<tombstoneColumns {
                values.append(index < change.tombstone.count ? change.tombstone[index] : .null)
            }
            key += 1
        }
        try transaction.insert(
            into: HistorySchema.changeTable,
            columns: ["Z_PK", "Z_ENT", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID", "ZCOLUMNS"] + (0..<tombstoneColumns).map(HistorySchema.tombstoneColumn),
            values: values)
        return number
    }

    /// Takes `count` keys of a history table from its `Z_PRIMARYKEY` row, locked first (and past
    /// any key already used, in case the row lags); the first.
    private static func takeKeys(_ count: Int64, of entity: Int, table: String, _ transaction: any ServerTransaction) throws -> Int64 {
        let recorded = try transaction.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ? FOR UPDATE", arguments: [entity.databaseValue])
        let used = try transaction.rows("SELECT max(Z_PK) FROM \(table)", arguments: [])
        let last = max(recorded.firstInteger ?? 0, used.firstInteger ?? 0)
        _ = try transaction.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [(last + count).databaseValue, entity.databaseValue])
        return last + 1
    }
}

/// A context's author or name the server cannot store: the save writes nothing.
struct HistoryNameRefused: Error, CustomStringConvertible {
    let description: String
}
