import DataModel
import GRDB
import StoreSchema

/// A store read table by table, for a copy: a SQLite file or a PostgreSQL database, read in one
/// snapshot from `catalog()` to `close()`.
protocol StoreTableReader {
    /// Every table with its columns, as the store names them.
    func catalog() async throws -> [String: Set<String>]
    /// A table or column name of the layout as the store spells it.
    func storedName(_ name: String) -> String
    /// The binary property list of `Z_METADATA`'s row, if it has one; only for a store whose
    /// catalog has the table.
    func metadata() async throws -> [UInt8]?
    /// The number of rows of the table the store names `table`.
    func rowCount(of table: String) async throws -> Int
    /// The SQLite statements that create the table the store names `table`, when it is a table
    /// outside the model's layout that a SQLite store had (`nil` for a table of other origin).
    func sqliteDefinition(of table: String) async throws -> [String]?
    /// Hands `table`'s rows to `body` in batches, each row's values in `table.columns`' order.
    func forEachBatch(of table: CopiedTable, _ body: ([[DatabaseValue]]) async throws -> Void) async throws
    func close() async throws
}

/// An empty store written table by table: nothing is visible until `commit()`, and `rollBack()`
/// (or a failure) leaves the destination as it was.
protocol StoreTableWriter {
    /// Creates the tables and indexes of `plan` (the triggers of derived attributes come with
    /// `commit`, after the rows, which already hold their values).
    /// Fails with `StoreCopyError.destinationNotEmpty` when the destination already holds a store.
    func create(_ plan: CopyPlan, model: Model) async throws
    /// Inserts `rows` into `table`; a value its column cannot hold throws `StoreCopyError.valueDoesNotFit`.
    func insert(_ rows: [[DatabaseValue]], into table: CopiedTable) async throws
    func commit(_ plan: CopyPlan) async throws
    func rollBack() async
}
