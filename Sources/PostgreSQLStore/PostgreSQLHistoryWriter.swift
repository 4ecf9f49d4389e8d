import DataStore
import Foundation
import GRDB
import StoreSchema

extension PostgreSQLTransaction {
    /// Writes the history's transaction and its changes, and notifies the store's other processes
    /// as the transaction commits; the transaction's number. Names go in the transaction's own
    /// text columns, the changes many to a statement. Keys come from `Z_PRIMARYKEY` rows locked
    /// until the commit, so transactions commit in the order of their numbers, and a reader that
    /// has seen one has seen every earlier one.
    func writeHistory(_ record: HistoryRecord) throws -> Int64 {
        for (name, value) in [("transactionAuthor", record.author), ("name", record.contextName)] where value?.utf8.contains(0) == true {
            throw PostgreSQLServerError(description: "the context's \(name) cannot be stored: \(PostgreSQLDialect.u0000Refusal)")
        }
        let number = try takeKeys(1, of: HistorySchema.transactionEntity, table: HistorySchema.transactionTable)
        let transaction = try inserter(
            into: HistorySchema.transactionTable, columns: ["Z_PK", "Z_ENT", "ZAUTHOR", "ZBUNDLEID", "ZCONTEXTNAME", "ZPROCESSID", "ZTIMESTAMP"])
        try transaction.insertRow([
            number.databaseValue, HistorySchema.transactionEntity.databaseValue, record.author.databaseValue, HistoryRecord.bundleID.databaseValue,
            record.contextName.databaseValue, HistoryRecord.processID.databaseValue, Date().timeIntervalSinceReferenceDate.databaseValue,
        ])
        if !record.changes.isEmpty {
            let firstKey = try takeKeys(Int64(record.changes.count), of: HistorySchema.changeEntity, table: HistorySchema.changeTable)
            try record.insertChanges(
                firstKey: firstKey, transaction: number, through: try inserter(into: HistorySchema.changeTable, columns: record.changeColumns))
        }
        try writeHeldRows()
        try notify(Self.commitChannel(ofStore: record.storeIdentifier), payload: "\(number)")
        return number
    }

    /// The channel the commits of the store whose `Z_UUID` is `identifier` are notified on.
    static func commitChannel(ofStore identifier: String) -> String {
        "datamodelkit_" + identifier.lowercased().filter { $0.isLetter || $0.isNumber }
    }

    /// Takes `count` keys of a history table from its `Z_PRIMARYKEY` row, locked first (and past
    /// any key already used, in case the row lags); the first.
    private func takeKeys(_ count: Int64, of entity: Int, table: String) throws -> Int64 {
        let recorded = try rows("SELECT \(.Z_MAX) FROM \(.Z_PRIMARYKEY) WHERE \(.Z_ENT) = ? FOR UPDATE", arguments: [entity.databaseValue])
        let used = try rows("SELECT max(\(.Z_PK)) FROM \(name: table)", arguments: [])
        let last = max(recorded.firstInteger ?? 0, used.firstInteger ?? 0)
        _ = try execute("UPDATE \(.Z_PRIMARYKEY) SET \(.Z_MAX) = ? WHERE \(.Z_ENT) = ?", arguments: [(last + count).databaseValue, entity.databaseValue])
        return last + 1
    }
}
