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

    /// The columns of `ACHANGE` a change's row has values for, in `row(of:key:transaction:into:)`'s order.
    package var changeColumns: [String] {
        ["Z_PK", "Z_ENT", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID", "ZCOLUMNS"] + (0..<tombstoneColumns).map(HistorySchema.tombstoneColumn)
    }

    /// The values of `change`'s row of `ACHANGE`, the row `key` of the transaction numbered
    /// `transaction`, in `values`, in the order of `changeColumns`; tombstones are padded with
    /// `NULL`.
    package func row(of change: Change, key: Int64, transaction: Int64, into values: inout [DatabaseValue]) {
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
