extension StoreSchema {
    /// The schema with each join table named as an existing store names it. Core Data's choice of
    /// the side that names a join table is not fully known (format reference §2.5), so when the
    /// expected table lacks the expected columns, the store's `tables` are searched, in order, for
    /// the first that has both; the join table's indexes follow it. `table(_:has:)` answers from the
    /// store's catalog.
    public func locatingJoinTables(
        among tables: [String], where table: (_ table: String, _ has: String) throws -> Bool
    ) rethrows -> StoreSchema {
        var schema = self
        for index in joinTables.indices {
            let join = joinTables[index]
            func holdsJoin(_ name: String) throws -> Bool {
                try table(name, join.sourceColumn) && table(name, join.destinationColumn)
            }
            if tables.contains(join.name), try holdsJoin(join.name) { continue }
            if let actual = try tables.first(where: holdsJoin) {
                schema.joinTables[index].name = actual
                for position in schema.indexes.indices where schema.indexes[position].table == join.name {
                    schema.indexes[position].table = actual
                }
            }
        }
        return schema
    }
}
