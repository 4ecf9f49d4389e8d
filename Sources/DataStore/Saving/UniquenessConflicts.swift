import GRDB

/// The uniqueness constraints an object's row breaks, found after the database refused the row's write
/// with a unique-index error: for each constraint, the row that already has the values.
enum UniquenessConflicts {
    /// The failures of `object`, written as the row `key`; `destinationKey` gives the permanent
    /// ID of a to-one's destination.
    static func failures(
        of object: SaveChanges.Row, key: Int64, store: PersistentStore, destinationKey: (ObjectID?) -> ObjectID?, in transaction: SaveTransaction
    ) throws -> [ValidationFailure] {
        let entity = object.entity
        var failures: [ValidationFailure] = []
        for constraint in entity.uniquenessConstraints {
            guard let columns = values(of: object, for: constraint, store: store, destinationKey: destinationKey) else { continue }
            let conditions = columns.map { column -> SQL in "\(name: column.name) = ?" }
            let sql: SQL = "SELECT \(.Z_PK), \(.Z_ENT) FROM \(name: entity.tableName) WHERE \(conditions.joined(separator: " AND ")) AND \(.Z_PK) != ? LIMIT 1"
            var conflicting: ObjectID?
            try transaction.rows(sql, columns.map(\.value) + [key.databaseValue]).forEach { row in
                conflicting = conflicting ?? store.objectID(key: .permanent(row.int64(0)), entityNumber: Int(row.int64(1)))
            }
            if let conflicting {
                failures.append(.uniquenessViolated(object.objectID, constraint: constraint, conflictingObject: conflicting))
            }
        }
        return failures
    }

    /// The columns of `constraint` with the values `object` writes to them; `nil` when one is
    /// empty (a unique index lets rows with an empty column share the others) or not a column.
    static func values(
        of object: SaveChanges.Row, for constraint: [String], store: PersistentStore, destinationKey: (ObjectID?) -> ObjectID?
    ) -> [(name: String, value: DatabaseValue)]? {
        let entity = object.entity
        var columns: [(name: String, value: DatabaseValue)] = []
        for name in constraint {
            if let attribute = entity.attribute(named: name), let index = attribute.columnIndex {
                columns.append((entity.tableColumns[index], store.dialect.storedValue(object.attributes[attribute.slot])))
            } else if let relationship = entity.relationship(named: name),
                      case .foreignKey(let column, _, _) = relationship.storage,
                      case .toOne(let id) = object.relationships[relationship.slot] {
                columns.append((entity.tableColumns[column], destinationKey(id)?.primaryKey?.databaseValue ?? .null))
            }
        }
        guard columns.count == constraint.count, !columns.contains(where: { $0.value == .null }) else { return nil }
        return columns
    }
}
