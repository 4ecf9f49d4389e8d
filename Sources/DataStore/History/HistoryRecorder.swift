import Foundation
import GRDB
import StoreSchema

/// Collects one transaction's changes for the history tables, which the engine writes inside the
/// database transaction that makes the changes, so history and data commit or roll back together.
struct HistoryRecorder {
    private(set) var changes: [HistoryRecord.Change] = []
    /// The bits of each set of changed properties, by entity number, made once: the objects of a
    /// save or a batch update tend to change the same properties.
    private var columnsByProperties: [Int: [Set<String>: Data?]] = [:]

    mutating func record(_ type: HistorySchema.ChangeType, entityNumber: Int, key: Int64, columns: Data? = nil, tombstone: [DatabaseValue] = []) {
        changes.append(HistoryRecord.Change(type: type, entityNumber: entityNumber, key: key, columns: columns, tombstone: tombstone))
    }

    /// Records an update of the row `key` of `entity` that changed `properties`, whose bits
    /// `layout` gives.
    mutating func recordUpdate(of entity: EntityDescription, key: Int64, properties: Set<String>, layout: @autoclosure () -> HistoryColumns) {
        let columns: Data?
        if let known = columnsByProperties[entity.number]?[properties] {
            columns = known
        } else {
            columns = layout().data(for: properties)
            columnsByProperties[entity.number, default: [:]][properties] = columns
        }
        record(.update, entityNumber: entity.number, key: key, columns: columns)
    }

    /// What the save writes as its history transaction.
    func record(author: String?, contextName: String?, store: PersistentStore) -> HistoryRecord {
        HistoryRecord(changes: changes, author: author, contextName: contextName, tombstoneColumns: store.tombstoneColumns, storeIdentifier: store.identifier)
    }
}
