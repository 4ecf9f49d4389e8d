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
            var conditions: [SQL] = []
            var values: [DatabaseValue] = []
            for name in constraint {
                if let attribute = entity.attribute(named: name), let index = attribute.columnIndex {
                    conditions.append("\(name: entity.tableColumns[index]) = ?")
                    values.append(store.dialect.storedValue(object.attributes[attribute.slot]))
                } else if let relationship = entity.relationship(named: name),
                          case .foreignKey(let column, _, _) = relationship.storage,
                          case .toOne(let id) = object.relationships[relationship.slot] {
                    conditions.append("\(name: entity.tableColumns[column]) = ?")
                    values.append(destinationKey(id)?.primaryKey?.databaseValue ?? .null)
                }
            }
            guard conditions.count == constraint.count, !values.contains(.null) else { continue }
            values.append(key.databaseValue)
            let sql: SQL = "SELECT \(.Z_PK), \(.Z_ENT) FROM \(name: entity.tableName) WHERE \(conditions.joined(separator: " AND ")) AND \(.Z_PK) != ? LIMIT 1"
            var conflicting: ObjectID?
            try transaction.rows(sql, values).forEach { row in
                conflicting = conflicting ?? store.objectID(key: .permanent(row.int64(0)), entityNumber: Int(row.int64(1)))
            }
            if let conflicting {
                failures.append(.uniquenessViolated(object.objectID, constraint: constraint, conflictingObject: conflicting))
            }
        }
        return failures
    }
}
