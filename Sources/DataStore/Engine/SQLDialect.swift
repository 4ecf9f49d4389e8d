import DataModel
import GRDB
import StoreSchema
import struct StoreSchema.Column

/// The SQL a store's engine speaks where engines differ. The runtime builds one query for every
/// engine, as an `SQL` value whose names and placeholders the dialect renders (`rendered(_:)`),
/// and asks the dialect for what an engine spells its own way, so that a query means the same
/// everywhere. SQLite's is `SQLiteDialect`; another engine's comes with its `StoreEngine`, from
/// the module that brings it.
package protocol SQLDialect: MigrationDialect {
    // MARK: Rendering

    /// A table, column or index of the store, as the engine's statements spell it.
    func spelling(ofName name: String) -> String

    /// The placeholder of the `number`th bound value (from 1).
    func placeholder(_ number: Int) -> String

    /// How many values one statement may bind: what lists of keys are cut to.
    var maximumBoundValues: Int { get }

    // MARK: Queries

    /// A condition that always holds (`true`) or never does.
    func truth(_ value: Bool) -> SQL

    /// What stands between `lhs` and `rhs` for "equal, `NULL` equal to `NULL`" (or "differ", when
    /// `equal` is false).
    func isSame(_ equal: Bool) -> SQL

    /// `LIMIT … OFFSET …`, where a limit of 0 means none.
    func limit(_ limit: Int, offset: Int) -> SQL

    /// The direction of an `ORDER BY` term, `NULL` sorting before every value as it does in memory.
    func direction(ascending: Bool) -> SQL

    /// A column of `type` as an aggregate (`sum`, `avg`) reads it.
    func aggregated(_ column: SQL, type: AttributeType) -> SQL

    /// The sum of `value` over rows, 0 for no rows.
    func total(_ value: SQL) -> SQL

    /// The value a column of the attribute's type holds.
    func storedValue(_ value: AttributeValue) -> DatabaseValue

    /// `INSERT` of the rows `select` gives into `into` (`INTO table (columns)`), skipping those
    /// whose key is there already.
    func insertKeepingExisting(_ into: SQL, select: SQL) -> SQL

    /// What a `SELECT` of a row ends with to keep other writers from it until the transaction ends.
    var lockingRows: SQL { get }

    /// What a `SELECT` ends with to keep other writers from the rows of `alias` it reads, while
    /// letting others read and share them, until the transaction ends.
    func sharingRows(of alias: String) -> SQL

    /// A table of `rows` rows of `?` placeholders, one per column of `columns`, named `alias`:
    /// what follows `FROM`.
    func valuesTable(rows: Int, columns: [String], alias: String) -> SQL

    /// What follows the column list of a temporary table keyed by its primary key.
    var keyedTableOptions: SQL { get }

    /// Whether a UUID constant is compared with a UUID column in its text form.
    var comparesUUIDsAsText: Bool { get }

    /// Whether text compares and sorts in SQL as it does in memory (the runtime's functions and
    /// collations). Where it does not, fetches judge text comparisons, sorts by comparators and
    /// dictionaries in memory, reading from SQL only the rows that may match.
    var matchesTextInSQL: Bool { get }

    /// A condition that holds where text `column` holds a character past ASCII (by the bytes of
    /// any encoding, a byte past 0x7F): text that `LIKE` and `lower()` may not match as the
    /// runtime does.
    func holdsOtherThanASCII(_ column: SQL) -> SQL

    /// Why text holding U+0000 cannot be stored, where text columns cannot hold it (a save that
    /// would write it fails); `nil` where they can.
    var u0000Refusal: String? { get }

    /// Whether the store's triggers keep derived attributes current. Where they do not, each save
    /// and migration computes the values it changes.
    var maintainsDerivedValuesWithTriggers: Bool { get }

    // MARK: Arithmetic of batch updates

    /// The name of a double-precision real type.
    var realType: SQL { get }

    /// `value` computed in exact numbers where the engine would otherwise type it as what it
    /// meets: an integer constant or column of a batch update's expression.
    func exactNumber(_ value: SQLFragment) -> SQLFragment

    /// A number cast to an integer attribute as SQLite casts, truncated toward zero.
    func integerCast(_ value: SQLFragment) -> SQLFragment

    /// A divisor, so that a division by zero gives `NULL`, as in SQLite.
    func divisor(_ value: SQLFragment) -> SQLFragment

    // MARK: Operators of predicates

    /// An arithmetic or bitwise operator of predicates (`PredicateFunction.isOperator`) on its
    /// operands, with `PredicateFunction.value(of:inReals:)`'s results: integers as SQLite
    /// computes them (integer division, by zero `NULL`), or reals when `inReals`. Never asked
    /// for what `ResolvedExpression.isJudgedInMemoryOnServers` leaves to memory on a server.
    func operation(_ function: PredicateFunction, _ operands: [SQLFragment], inReals: Bool) -> SQLFragment
}

extension SQLDialect {
    /// `sql` as the engine reads it: names spelled and placeholders numbered as it spells them.
    package func rendered(_ sql: SQL) -> String {
        sql.rendering(for: Self.self) { renderedPieces(of: sql) }
    }

    private func renderedPieces(of sql: SQL) -> String {
        var text = ""
        text.reserveCapacity(sql.pieces.count * 8)
        var placeholders = 0
        for piece in sql.pieces {
            switch piece {
            case .text(let part): text += part
            case .name(let name): text += spelling(ofName: name)
            case .placeholder:
                placeholders += 1
                text += placeholder(placeholders)
            }
        }
        return text
    }

    /// `(?, ?), (?, ?)…`: `rows` rows of `columns` placeholders, as `VALUES` lists them.
    package func placeholderRows(_ rows: Int, columns: Int) -> SQL {
        let row: SQL = "(" + Array(repeating: SQL.placeholder, count: columns).joined(separator: ", ") + ")"
        return Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// `INSERT` of one row of `?` placeholders for `columns` into `table`, which may hold it
    /// already: the existing row then stays.
    func insertKeepingExisting(into table: SQL, columns: [String]) -> SQL {
        insertKeepingExisting("INTO \(table) (\(names: columns))", select: "VALUES " + placeholderRows(1, columns: columns.count))
    }
}

/// What a migration writes its own way on each engine: DDL, temporary tables, literals.
package protocol MigrationDialect: Sendable {
    func createStatement(for table: EntityTable, in schema: StoreSchema, model: Model) -> SQL
    func createStatement(for join: JoinTable, in schema: StoreSchema) -> SQL
    func createStatement(for index: StoreIndex, in schema: StoreSchema) -> SQL

    /// A column's type as `ADD COLUMN` spells it, for a column of the layout of `model`.
    func definition(of column: Column, model: Model) -> SQL

    /// The name of a binary column's type.
    var binaryType: SQL { get }

    /// The name of a 64-bit integer column's type.
    var integerType: SQL { get }

    /// The function of the greater of two values.
    var greatest: SQL { get }

    /// A table of the migration's own, which no other connection sees, as statements name it.
    func temporaryTable(_ name: String) -> SQL

    /// `CREATE` of the temporary table `temporaryTable(_:)` named, with `columns`.
    func createTemporaryTable(_ table: SQL, columns: SQL) -> SQL

    /// `CREATE` of the temporary table `temporaryTable(_:)` named, holding the rows of `select`.
    func createTemporaryTable(_ table: SQL, as select: SQL) -> SQL

    /// The queries that read the store's own description: every table's columns as `(table,
    /// column)` rows in column order, every index a table does not make by itself as `(name,
    /// table, definition)`, and the names of triggers (`nil` for an engine without them).
    var catalogQueries: (columns: SQL, indexes: SQL, triggers: SQL?) { get }

    /// The query of the number of the store's tables named `table` (0 or 1).
    func countOfTables(named table: String) -> SQL

    /// The names of `names` the engine keeps in another spelling (shortened to its length), by
    /// that spelling: what the catalog says is read back as the layout spells it.
    func catalogSpellings(of names: Set<String>) -> [String: String]

    /// What keeps other writers from `table` until the transaction ends (a migration step locks
    /// `Z_METADATA`); `nil` where the transaction holds the database alone already.
    func lockingTable(_ table: String) -> SQL?

    /// Whether an index of the old layout whose definition the new layout has again is kept.
    var keepsUnchangedIndexes: Bool { get }

    /// A default value as a literal of an attribute of `type`; `nil` for none.
    func literal(_ value: AttributeValue, type: AttributeType) -> SQL?

    /// `value`, of an attribute of type `source`, as a column of an attribute of type
    /// `destination` takes it (a migration checked first that the value converts exactly).
    func converted(_ value: SQL, from source: AttributeType, to destination: AttributeType) -> SQL
}
