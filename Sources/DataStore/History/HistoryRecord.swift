import Foundation
import GRDB
import StoreSchema

/// One transaction of the persistent history, as a save or batch request hands it to its engine
/// to write (`EngineTransaction.writeHistory(_:)`).
package struct HistoryRecord {
    /// One object's change.
    package struct Change {
        package var type: HistorySchema.ChangeType
        package var entityNumber: Int
        package var key: Int64
        /// For an update, the changed properties' bits (``HistoryColumns``).
        package var columns: Data?
        /// For a delete, the preserved values (``HistoryTombstones``).
        package var tombstone: [DatabaseValue] = []
    }

    package let changes: [Change]
    /// The context's `transactionAuthor` and `name`.
    package let author: String?
    package let contextName: String?
    /// The number of tombstone columns of the store's `ACHANGE`: each change's row has that many.
    package let tombstoneColumns: Int
    /// `Z_METADATA.Z_UUID` of the store.
    package let storeIdentifier: String

    /// The app's bundle identifier where there is one (Apple's platforms), and the process's name:
    /// what the transaction records of its writer.
    package static let bundleID = Bundle.main.bundleIdentifier
    package static let processID = ProcessInfo.processInfo.processName

    /// The columns of `ACHANGE` each change's row has values for, in the order `insertChanges` writes them.
    package var changeColumns: [String] {
        ["Z_PK", "Z_ENT", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID", "ZCOLUMNS"] + (0..<tombstoneColumns).map(HistorySchema.tombstoneColumn)
    }

    /// Inserts every change's row of `ACHANGE` through `inserter`, keyed from `firstKey` on, for the
    /// transaction numbered `transaction`.
    package func insertChanges(firstKey: Int64, transaction: Int64, through inserter: any RowInserter) throws {
        var key = firstKey
        var values: [DatabaseValue] = []
        for change in changes {
            row(of: change, key: key, transaction: transaction, into: &values)
            try inserter.insertRow(values)
            key += 1
        }
    }

    /// The values of `change`'s row of `ACHANGE`, the row `key` of the transaction numbered
    /// `transaction`, in `values`, in the order of `changeColumns`; tombstones are padded with
    /// `NULL`.
    private func row(of change: Change, key: Int64, transaction: Int64, into values: inout [DatabaseValue]) {
        values.removeAll(keepingCapacity: true)
        values += [
            key.databaseValue, HistorySchema.changeEntity.databaseValue, Int64(change.type.rawValue).databaseValue,
            change.entityNumber.databaseValue, change.key.databaseValue, transaction.databaseValue, change.columns?.databaseValue ?? .null,
        ]
        for index in 0..<tombstoneColumns {
            values.append(index < change.tombstone.count ? change.tombstone[index] : .null)
        }
    }
}
