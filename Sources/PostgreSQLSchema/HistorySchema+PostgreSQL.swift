import StoreSchema

/// The persistent history's tables in PostgreSQL: Core Data's columns with PostgreSQL's types, as
/// `StoreSchema.postgreSQLCreateStatements(model:)` maps the objects' tables.
extension HistorySchema {
    /// A history table's name and columns, each with its PostgreSQL type, in Core Data's order.
    public struct PostgreSQLTable: Sendable {
        public var name: String
        public var columns: [(name: String, type: String)]
    }

    /// The three tables, with `tombstoneColumns` tombstone columns on `ACHANGE`.
    ///
    /// A tombstone column holds the preserved values of every entity's deletes, so values of any
    /// type, which SQLite keeps in one `BLOB` column and PostgreSQL cannot: there it is `bytea`
    /// holding the value tagged with its SQLite storage class (PostgreSQLStore's `anyValue`).
    public static func postgreSQLTables(tombstoneColumns: Int) -> [PostgreSQLTable] {
        // As the objects' tables have them.
        let bookkeeping = [("Z_PK", "bigint"), ("Z_ENT", "integer"), ("Z_OPT", "bigint")]
        return [
            PostgreSQLTable(
                name: changeTable,
                columns: bookkeeping + [("ZCHANGETYPE", "bigint"), ("ZENTITY", "bigint"), ("ZENTITYPK", "bigint"), ("ZTRANSACTIONID", "bigint"), ("ZCOLUMNS", "bytea")]
                    + (0..<tombstoneColumns).map { (tombstoneColumn($0), "bytea") }),
            PostgreSQLTable(
                name: transactionTable,
                columns: bookkeeping + [
                    ("ZAUTHORTS", "bigint"), ("ZBUNDLEIDTS", "bigint"), ("ZCONTEXTNAMETS", "bigint"), ("ZPROCESSIDTS", "bigint"),
                    ("ZTIMESTAMP", "double precision"), ("ZAUTHOR", "text"), ("ZBUNDLEID", "text"), ("ZCONTEXTNAME", "text"),
                    ("ZPROCESSID", "text"), ("ZQUERYGEN", "bytea"),
                ]),
            PostgreSQLTable(name: stringTable, columns: bookkeeping + [("ZNAME", "text")]),
        ]
    }

    /// `CREATE TABLE` and `CREATE INDEX` statements for PostgreSQL, in Core Data's order, with the
    /// text keys of indexes in the `"C"` collation (SQLite's `BINARY`).
    public static func postgreSQLCreateStatements(tombstoneColumns: Int) -> [String] {
        let tables = postgreSQLTables(tombstoneColumns: tombstoneColumns).map { table in
            "CREATE TABLE \(PostgreSQLName.quoted(table.name)) ( "
                + table.columns.map { "\(PostgreSQLName.quoted($0.name)) \($0.type)\($0.name == "Z_PK" ? " PRIMARY KEY" : "")" }.joined(separator: ", ")
                + " );"
        }
        let indexes: [(name: String, table: String, key: String, unique: Bool)] = [
            ("ACHANGE_ZTRANSACTIONID_INDEX", changeTable, #""ZTRANSACTIONID""#, false),
            ("ATRANSACTION_ZAUTHORTS_INDEX", transactionTable, #""ZAUTHORTS""#, false),
            ("ATRANSACTION_ZBUNDLEIDTS_INDEX", transactionTable, #""ZBUNDLEIDTS""#, false),
            ("ATRANSACTION_ZCONTEXTNAMETS_INDEX", transactionTable, #""ZCONTEXTNAMETS""#, false),
            ("ATRANSACTION_ZPROCESSIDTS_INDEX", transactionTable, #""ZPROCESSIDTS""#, false),
            ("Z_TRANSACTION_TransactionAuthorIndex", transactionTable, #""ZAUTHOR" COLLATE "C" ASC"#, false),
            ("Z_TRANSACTION_TransactionTimestampIndex", transactionTable, #""ZTIMESTAMP" ASC"#, false),
            ("Z_TRANSACTIONSTRING_UNIQUE_NAME", stringTable, #""ZNAME" COLLATE "C" ASC"#, true),
        ]
        return tables + indexes.map { index in
            "CREATE \(index.unique ? "UNIQUE " : "")INDEX \(PostgreSQLName.quoted(index.name)) ON \(PostgreSQLName.quoted(index.table)) (\(index.key));"
        }
    }
}
