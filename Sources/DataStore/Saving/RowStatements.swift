import GRDB

/// The statements a save runs once per object, each prepared once for the save: an entity's
/// `DELETE`, and its `UPDATE` of each set of columns its objects change — a save of many objects
/// mostly changes the same columns of one entity — with the room an `UPDATE`'s columns and
/// arguments are built in, row after row.
final class RowStatements {
    private let transaction: SaveTransaction
    private var updates: [[Int]: SaveTransaction.LoggedStatement] = [:]
    /// The update asked for last: comparing with it costs less than making and hashing a key.
    private var lastUpdate: (entity: Int, columns: [Int], statement: SaveTransaction.LoggedStatement)?
    /// Each entity's `DELETE`, by entity number.
    private var deletes: [SaveTransaction.LoggedStatement?] = []
    /// One row's `UPDATE` columns and arguments, built here row after row in the same room.
    /// Used by one row at a time, so unchecked: checking each access cost as much as the room saves.
    @exclusivity(unchecked) var columns: [Int] = []
    @exclusivity(unchecked) var arguments: [DatabaseValue] = []

    init(_ transaction: SaveTransaction) {
        self.transaction = transaction
    }

    /// Empties `columns` and `arguments` for the next row, keeping their room.
    func clearArguments() {
        // One by one: `removeAll(keepingCapacity:)` runs a generic `replaceSubrange`, which costs
        // more than removing a row's few arguments.
        while columns.popLast() != nil {}
        while arguments.popLast() != nil {}
    }

    /// `UPDATE` of `columns` (indexes among the entity's table columns) and `Z_OPT` of the row
    /// whose `Z_PK` and `Z_OPT` are the last two arguments.
    func update(of entity: EntityDescription, columns: [Int]) throws -> SaveTransaction.LoggedStatement {
        if let lastUpdate, lastUpdate.entity == entity.number, lastUpdate.columns == columns { return lastUpdate.statement }
        let key = [entity.number] + columns
        let statement = try updates[key] ?? {
            let assignments = (columns.map { entity.tableColumns[$0] } + ["Z_OPT"]).map { "\(name: $0) = ?" as SQL }.joined(separator: ", ")
            let sql: SQL = "UPDATE \(name: entity.tableName) SET \(assignments) WHERE \(.Z_PK) = ? AND \(.Z_OPT) = ?"
            let statement = try transaction.prepare(sql.reusable)
            updates[key] = statement
            return statement
        }()
        lastUpdate = (entity.number, columns, statement)
        return statement
    }

    /// `DELETE` of the row whose `Z_PK` and `Z_OPT` are the two arguments.
    func delete(of entity: EntityDescription) throws -> SaveTransaction.LoggedStatement {
        if entity.number < deletes.count, let statement = deletes[entity.number] { return statement }
        let statement = try transaction.prepare(entity.deleteStatement)
        if deletes.count <= entity.number { deletes += Array(repeating: nil, count: entity.number + 1 - deletes.count) }
        deletes[entity.number] = statement
        return statement
    }
}
