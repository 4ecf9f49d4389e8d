import GRDB
import StoreSchema

/// What a deleted object leaves in its history change, Core Data's tombstone: the values of its
/// entity's attributes marked `preserveAfterDeletion`, in `ACHANGE`'s `ZTOMBSTONE0…` columns,
/// numbered by the attributes' names. The values are read from the row just before it is
/// deleted, in the same transaction, so they are the ones the store held.
struct HistoryTombstones: Sendable {
    /// The preserved attributes: the `n`th one's value goes in `ZTOMBSTONE<n>`.
    let attributes: [AttributeDescription]

    init(_ entity: EntityDescription) {
        attributes = entity.attributes.filter(\.preservesValueInHistoryOnDeletion).sorted { $0.name < $1.name }
    }

    var isEmpty: Bool { attributes.isEmpty }

    /// The preserved values of the rows of `table` that `condition` selects, by key; `read` runs
    /// the query, in the transaction that deletes them.
    func values(ofRowsIn table: String, where condition: SQLFragment, read: (SQLFragment) throws -> ReadRows) throws -> [Int64: [DatabaseValue]] {
        guard !isEmpty else { return [:] }
        let columns = SQL.names(attributes.compactMap(\.columnName))
        var values: [Int64: [DatabaseValue]] = [:]
        try read(SQLFragment(sql: "SELECT \(.Z_PK), \(columns) FROM \(name: table) WHERE ") + condition).forEach { row in
            values[row.int64(0)] = (1...attributes.count).map { row.databaseValue(Int32($0)) }
        }
        return values
    }

    /// The tombstone of a delete whose change holds `values`: the present values by attribute name.
    func tombstone(_ values: [DatabaseValue]) -> [String: AttributeValue] {
        var tombstone: [String: AttributeValue] = [:]
        for (attribute, value) in zip(attributes, values) where !value.isNull {
            tombstone[attribute.name] = AttributeValue(value, as: attribute.type)
        }
        return tombstone
    }
}
