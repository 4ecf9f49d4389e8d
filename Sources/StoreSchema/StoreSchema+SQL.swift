import Foundation

/// The schema as SQLite DDL in Core Data's text style (`CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, … );`).
extension StoreSchema {
    /// The fixed tables every store has.
    public static let bookkeepingTables = [
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);",
        "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);",
    ]

    /// Every `CREATE TABLE`, `CREATE INDEX` and `CREATE TRIGGER` statement, in the order Core Data issues them.
    public var createStatements: [String] {
        tables.map { createStatement(for: $0) } + joinTables.map { createStatement(for: $0) }
            + indexes.map { createStatement(for: $0) } + derivedAttributes.flatMap { $0.triggers.map(\.sql) }
            + Self.bookkeepingTables
    }

    /// `CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, … );`
    public func createStatement(for table: EntityTable) -> String {
        "CREATE TABLE \(identifier(table.name)) ( "
            + table.columns.map { column in
                "\(identifier(column.name)) \(column.type.rawValue)\(column.role == .primaryKey ? " PRIMARY KEY" : "")"
            }.joined(separator: ", ") + " );"
    }

    /// `CREATE TABLE Z_2TAGS ( Z_2BOOKS INTEGER, Z_9TAGS INTEGER, …, PRIMARY KEY (…) );`
    public func createStatement(for join: JoinTable) -> String {
        "CREATE TABLE \(identifier(join.name)) ( "
            + join.columnNames.map { "\(identifier($0)) INTEGER" }.joined(separator: ", ")
            + ", PRIMARY KEY (\(identifier(join.sourceColumn)), \(identifier(join.destinationColumn))) );"
    }

    /// `CREATE [UNIQUE] INDEX name ON table (…);`
    public func createStatement(for index: StoreIndex) -> String {
        let keys = index.keys.map { key in
            identifier(key.column) + (key.isCollated ? " COLLATE BINARY \(key.isDescending ? "DESC" : "ASC")" : "")
        }
        return "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(identifier(index.name)) ON \(identifier(index.table)) (\(keys.joined(separator: ", ")));"
    }

    /// The rows of `Z_PRIMARYKEY` for a new store: every entity with its parent and `Z_MAX` 0.
    public var primaryKeyRows: [(number: Int, name: String, superNumber: Int)] {
        entities.map { ($0.number, $0.name, $0.superNumber) }
    }

    /// A complete script that creates an empty store: the tables, indexes and `Z_PRIMARYKEY` rows,
    /// and with `metadata` the `Z_METADATA` row.
    ///
    /// The store UUID is drawn by SQLite when the script runs, so the text stays the same on every
    /// run while every store made from it gets its own UUID.
    public func sql(metadata: StoreMetadata? = nil) -> String {
        var statements = createStatements
        statements += primaryKeyRows.map { row in
            "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (\(row.number), \(literal(row.name)), \(row.superNumber), 0);"
        }
        if let metadata {
            let plist = hexDigits(metadata.binaryPropertyList)
            statements.append(
                "WITH random(h) AS (SELECT hex(randomblob(16))) INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) "
                    + "SELECT 1, \(Self.uuidExpression), X'\(plist)' FROM random;"
            )
        }
        return statements.joined(separator: "\n") + "\n"
    }

    /// An uppercase, dashed version-4 UUID built from the 32 hex digits `h`.
    private static let uuidExpression = "substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-' "
        + "|| substr('89AB', 1 + (random() & 3), 1) || substr(h, 18, 3) || '-' || substr(h, 21, 12)"
}

/// SQL spelling shared by everything that writes statements against a store.
public enum SQLSyntax {
    /// A table, column or index name as Core Data writes it: bare, quoted only when SQLite could
    /// not read it bare.
    public static func identifier(_ name: String) -> String {
        let isBare = !name.isEmpty && name.utf8.allSatisfy { byte in
            byte >= 0x80 || byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
        } && !(name.utf8.first.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false)
        return isBare ? name : "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A string as an SQL literal, quotes doubled.
    public static func stringLiteral(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}

func identifier(_ name: String) -> String { SQLSyntax.identifier(name) }

/// An identifier always in double quotes: view and column aliases carry model names, which may be SQL keywords.
package func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

package func literal(_ text: String) -> String { SQLSyntax.stringLiteral(text) }

/// Bytes as two uppercase hex digits each, for a blob literal (`X'…'` in SQLite).
package func hexDigits(_ bytes: [UInt8]) -> String {
    bytes.map { byte in (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true) }.joined()
}
