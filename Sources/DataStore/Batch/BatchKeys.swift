import GRDB
import GRDBSQLite

/// The rows a batch request changes, noted in a temporary table of the writer connection —
/// `(Z_ROOT, Z_PK, Z_ENT)`, keyed by the root entity's number and the row's key — so that each
/// statement of the request can join them instead of binding thousands of keys.
struct BatchKeys {
    static let table = "DSBATCHKEYS"

    struct Row: Hashable {
        var root: Int
        var key: Int64
        var entityNumber: Int
    }

    let db: Database

    init(_ db: Database) {
        self.db = db
    }

    /// Makes the table, or empties it.
    func clear() throws {
        try db.execute(sql: """
            CREATE TEMP TABLE IF NOT EXISTS \(Self.table) (Z_ROOT INTEGER NOT NULL, Z_PK INTEGER NOT NULL, Z_ENT INTEGER NOT NULL,
            PRIMARY KEY (Z_ROOT, Z_PK)) WITHOUT ROWID
            """)
        try db.execute(sql: "DELETE FROM temp.\(Self.table)")
    }

    /// Adds the rows `select` gives as `(root, key, entity)`, skipping those already there; the
    /// number added.
    @discardableResult
    func insert(_ select: SQLFragment, log store: PersistentStore) throws -> Int {
        try store.execute("INSERT OR IGNORE INTO temp.\(Self.table) (Z_ROOT, Z_PK, Z_ENT) " + select, in: db)
        return db.changesCount
    }

    /// `SELECT Z_PK FROM …` of the noted rows of the hierarchy `root`, for `IN (…)`.
    static func keys(root: Int, entity: Int? = nil) -> String {
        "SELECT Z_PK FROM temp.\(table) WHERE Z_ROOT = \(root)" + (entity.map { " AND Z_ENT = \($0)" } ?? "")
    }

    /// The noted rows, in key order within each hierarchy; those of the hierarchy `root` only when given.
    func rows(root: Int? = nil) throws -> [Row] {
        let condition = root.map { " WHERE Z_ROOT = \($0)" } ?? ""
        var rows: [Row] = []
        let select = try db.makeStatement(sql: "SELECT Z_ROOT, Z_PK, Z_ENT FROM temp.\(Self.table)\(condition) ORDER BY Z_ROOT, Z_PK")
        try select.forEachRow(arguments: []) { row in
            rows.append(Row(root: Int(sqlite3_column_int64(row, 0)), key: sqlite3_column_int64(row, 1), entityNumber: Int(sqlite3_column_int64(row, 2))))
        }
        return rows
    }

    /// The entity numbers of the noted rows.
    func entityNumbers() throws -> [Int] {
        try Int.fetchAll(db, sql: "SELECT DISTINCT Z_ENT FROM temp.\(Self.table) ORDER BY Z_ENT")
    }
}
