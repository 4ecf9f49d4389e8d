import DataModel
import GRDB
import StoreSchema
import struct StoreSchema.Column

/// The SQL a store's engine speaks where engines differ. The runtime writes one query for every
/// engine, with the store's bare names and `?` placeholders, and asks the dialect for what an
/// engine spells its own way, so that a query means the same everywhere. SQLite's is
/// `SQLiteDialect`; another engine's comes with its `StoreEngine`, from the module that brings
/// it.
package protocol SQLDialect: MigrationDialect {
    // MARK: Queries

    /// A condition that always holds (`true`) or never does.
    func truth(_ value: Bool) -> String

    /// What stands between `lhs` and `rhs` for "equal, `NULL` equal to `NULL`" (or "differ", when
    /// `equal` is false).
    func isSame(_ equal: Bool) -> String

    /// `LIMIT … OFFSET …`, where a limit of 0 means none.
    func limit(_ limit: Int, offset: Int) -> String

    /// The direction of an `ORDER BY` term, `NULL` sorting before every value as it does in memory.
    func direction(ascending: Bool) -> String

    /// A column of `type` as an aggregate (`sum`, `avg`) reads it.
    func aggregated(_ column: String, type: AttributeType) -> String

    /// The sum of `value` over rows, 0 for no rows.
    func total(_ value: String) -> String

    /// The value a column of the attribute's type holds.
    func storedValue(_ value: AttributeValue) -> DatabaseValue

    /// `INSERT` of the rows `select` gives into `into` (`INTO table (columns)`), skipping those
    /// whose key is there already.
    func insertKeepingExisting(_ into: String, select: String) -> String

    /// What a `SELECT` of a row ends with to keep other writers from it until the transaction ends.
    var lockingRows: String { get }

    /// What a `SELECT` ends with to keep other writers from the rows of `alias` it reads, while
    /// letting others read and share them, until the transaction ends.
    func sharingRows(of alias: String) -> String

    /// A table of `rows` rows of `?` placeholders, one per column of `columns`, named `alias`:
    /// what follows `FROM`.
    func valuesTable(rows: Int, columns: [String], alias: String) -> String

    /// What follows the column list of a temporary table keyed by its primary key.
    var keyedTableOptions: String { get }

    /// Whether a UUID constant is compared with a UUID column in its text form.
    var comparesUUIDsAsText: Bool { get }

    /// Whether text compares and sorts in SQL as it does in memory (the runtime's functions and
    /// collations). Where it does not, fetches judge text comparisons, sorts by comparators and
    /// dictionaries in memory, reading from SQL only the rows that may match.
    var matchesTextInSQL: Bool { get }

    /// A condition that holds where text `column` holds a character past ASCII (by the bytes of
    /// any encoding, a byte past 0x7F): text that `LIKE` and `lower()` may not match as the
    /// runtime does.
    func holdsOtherThanASCII(_ column: String) -> String

    /// Why text holding U+0000 cannot be stored, where text columns cannot hold it (a save that
    /// would write it fails); `nil` where they can.
    var u0000Refusal: String? { get }

    /// Whether the store's triggers keep derived attributes current. Where they do not, each save
    /// and migration computes the values it changes.
    var maintainsDerivedValuesWithTriggers: Bool { get }

    // MARK: Arithmetic of batch updates

    /// The name of a double-precision real type.
    var realType: String { get }

    /// `value` computed in exact numbers where the engine would otherwise type it as what it
    /// meets: an integer constant or column of a batch update's expression.
    func exactNumber(_ value: SQLFragment) -> SQLFragment

    /// A number cast to an integer attribute as SQLite casts, truncated toward zero.
    func integerCast(_ value: SQLFragment) -> SQLFragment

    /// A divisor, so that a division by zero gives `NULL`, as in SQLite.
    func divisor(_ value: SQLFragment) -> SQLFragment
}

extension SQLDialect {
    /// `(?, ?), (?, ?)…`: `rows` rows of `columns` placeholders, as `VALUES` lists them.
    package func placeholderRows(_ rows: Int, columns: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
        return Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// `INSERT` of one row of `?` placeholders for `columns` into `table`, which may hold it
    /// already: the existing row then stays.
    func insertKeepingExisting(into table: String, columns: [String]) -> String {
        insertKeepingExisting("INTO \(table) (\(columns.joined(separator: ", ")))", select: "VALUES " + placeholderRows(1, columns: columns.count))
    }
}

/// What a migration writes its own way on each engine: DDL, temporary tables, literals.
package protocol MigrationDialect: Sendable {
    /// Statements written with bare names, as the engine reads them once `names` (the layouts'
    /// tables, columns and indexes) are known.
    func statementNames(_ names: Set<String>) -> StatementNames

    func createStatement(for table: EntityTable, in schema: StoreSchema, model: Model) -> String
    func createStatement(for join: JoinTable, in schema: StoreSchema) -> String
    func createStatement(for index: StoreIndex, in schema: StoreSchema) -> String

    /// A column's type as `ADD COLUMN` spells it, for a column of the layout of `model`.
    func definition(of column: Column, model: Model) -> String

    /// The name of a binary column's type.
    var binaryType: String { get }

    /// The name of a 64-bit integer column's type.
    var integerType: String { get }

    /// The function of the greater of two values.
    var greatest: String { get }

    /// A table of the migration's own, which no other connection sees, as statements name it.
    func temporaryTable(_ name: String) -> String

    /// `CREATE` of the temporary table `temporaryTable(_:)` named, with `columns`.
    func createTemporaryTable(_ table: String, columns: String) -> String

    /// `CREATE` of the temporary table `temporaryTable(_:)` named, holding the rows of `select`.
    func createTemporaryTable(_ table: String, as select: String) -> String

    /// The queries that read the store's own description: every table's columns as `(table,
    /// column)` rows in column order, every index a table does not make by itself as `(name,
    /// table, definition)`, and the names of triggers (`nil` for an engine without them).
    var catalogQueries: (columns: String, indexes: String, triggers: String?) { get }

    /// The query of the number of the store's tables named `table` (0 or 1).
    func countOfTables(named table: String) -> String

    /// The names of `names` the engine keeps in another spelling (shortened to its length), by
    /// that spelling: what the catalog says is read back as the layout spells it.
    func catalogSpellings(of names: Set<String>) -> [String: String]

    /// What keeps other writers from `table` until the transaction ends (a migration step locks
    /// `Z_METADATA`); `nil` where the transaction holds the database alone already.
    func lockingTable(_ table: String) -> String?

    /// Whether an index of the old layout whose definition the new layout has again is kept.
    var keepsUnchangedIndexes: Bool { get }

    /// A default value as a literal of an attribute of `type`; `nil` for none.
    func literal(_ value: AttributeValue, type: AttributeType) -> String?
}

/// SQL written with bare names, made ready for an engine: `finished(_:)` quotes the names a server
/// folds, and leaves SQLite's SQL as it is.
package struct StatementNames: Sendable {
    /// The names statements use.
    package let names: Set<String>
    private let finish: @Sendable (String) -> String

    package init(names: Set<String>, finish: @escaping @Sendable (String) -> String) {
        self.names = names
        self.finish = finish
    }

    package func finished(_ sql: String) -> String {
        finish(sql)
    }
}
