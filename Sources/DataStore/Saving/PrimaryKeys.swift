/// Primary keys as Core Data takes them: each hierarchy's root row of `Z_PRIMARYKEY` keeps the
/// last key taken (`Z_MAX`), for a save, a batch insert or `obtainPermanentIDs(for:)`.
extension SQLTransaction {
    /// The last key taken in the hierarchy of the root entity `root`, whose rows are in `table`:
    /// `Z_MAX`, or the table's largest `Z_PK` in case a store's `Z_MAX` lags. The row is locked
    /// first on a server, so that no other process takes the same keys until this one commits.
    func lastPrimaryKey(ofRoot root: Int, table: String, dialect: any SQLDialect) throws -> Int64 {
        let recorded = try integer("SELECT \(.Z_MAX) FROM \(.Z_PRIMARYKEY) WHERE \(.Z_ENT) = ?" + dialect.lockingRows, [root.databaseValue]) ?? 0
        let used = try integer("SELECT MAX(\(.Z_PK)) FROM \(name: table)", []) ?? 0
        return max(recorded, used)
    }

    /// Records `key` as the last one taken in the hierarchy of `root`. Without the row, nothing
    /// keeps other processes from taking the same keys: an engine that locks rows refuses to go on.
    func recordLastPrimaryKey(_ key: Int64, ofRoot root: Int, locksRows: Bool) throws {
        guard try execute("UPDATE \(.Z_PRIMARYKEY) SET \(.Z_MAX) = ? WHERE \(.Z_ENT) = ?", [key.databaseValue, root.databaseValue]) == 1
        else {
            guard !locksRows else { throw StoreError.notAStore(reason: "Z_PRIMARYKEY has no row for entity \(root)") }
            return
        }
    }
}
