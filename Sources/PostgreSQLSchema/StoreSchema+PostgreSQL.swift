import DataModel
import StoreSchema

/// The schema as PostgreSQL DDL: Core Data's tables, columns, indexes and bookkeeping rows, with
/// PostgreSQL's types.
///
/// Every name is quoted, so that the catalog spells it as Core Data does (`"ZBOOK"."Z_PK"`, where
/// an unquoted name would fold to `zbook`), and a store reads the same through either engine.
/// Dates stay Core Data's seconds since 2001 (`double precision`), so they compare and sort as
/// they do in SQLite; text columns, and so their comparisons, orders and index keys, use the `"C"`
/// collation, which orders by bytes as SQLite's `BINARY` does.
extension StoreSchema {
    /// The fixed tables every store has.
    public static let postgreSQLBookkeepingTables = [
        #"CREATE TABLE "Z_PRIMARYKEY" ("Z_ENT" integer PRIMARY KEY, "Z_NAME" text, "Z_SUPER" integer, "Z_MAX" bigint);"#,
        #"CREATE TABLE "Z_METADATA" ("Z_VERSION" integer PRIMARY KEY, "Z_UUID" varchar(255), "Z_PLIST" bytea);"#,
        #"CREATE TABLE "Z_MODELCACHE" ("Z_CONTENT" bytea);"#,
    ]

    /// Every `CREATE TABLE` and `CREATE INDEX` statement for PostgreSQL, in Core Data's order;
    /// `model` is the model the schema was computed from, which gives each attribute column its type.
    public func postgreSQLCreateStatements(model: Model) -> [String] {
        let types = PostgreSQLColumnTypes(model: model)
        return tables.map { postgreSQLCreateStatement(for: $0, types: types) } + joinTables.map(postgreSQLCreateStatement(for:))
            + indexes.map(postgreSQLCreateStatement(for:)) + Self.postgreSQLBookkeepingTables
    }

    /// `CREATE TABLE` for an entity table, each column of the type `types` gives it.
    public func postgreSQLCreateStatement(for table: EntityTable, types: PostgreSQLColumnTypes) -> String {
        "CREATE TABLE \(quotedForPostgreSQL(table.name)) ( "
            + table.columns.map { column in
                "\(quotedForPostgreSQL(column.name)) \(types.definition(of: column))\(column.role == .primaryKey ? " PRIMARY KEY" : "")"
            }.joined(separator: ", ") + " );"
    }

    /// `CREATE TABLE` for a join table.
    public func postgreSQLCreateStatement(for join: JoinTable) -> String {
        "CREATE TABLE \(quotedForPostgreSQL(join.name)) ( "
            + join.columnNames.map { "\(quotedForPostgreSQL($0)) bigint" }.joined(separator: ", ")
            + ", PRIMARY KEY (\(quotedForPostgreSQL(join.sourceColumn)), \(quotedForPostgreSQL(join.destinationColumn))) );"
    }

    /// `CREATE INDEX` for an index of the schema.
    public func postgreSQLCreateStatement(for index: StoreIndex) -> String {
        // Only text takes a collation in PostgreSQL; SQLite's `COLLATE BINARY` on other keys has no counterpart.
        let table = tables.first { $0.name == index.table }
        let keys = index.keys.map { key in
            let isText = table?.columns.contains { $0.name == key.column && $0.type == .varchar } ?? false
            let collation = key.isCollated && isText ? #" COLLATE "C""# : ""
            return quotedForPostgreSQL(key.column) + collation + (key.isCollated ? (key.isDescending ? " DESC" : " ASC") : "")
        }
        return "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(quotedForPostgreSQL(index.name)) ON \(quotedForPostgreSQL(index.table)) (\(keys.joined(separator: ", ")));"
    }

    /// A complete PostgreSQL script that creates an empty store: the tables, indexes and
    /// `Z_PRIMARYKEY` rows, and with `metadata` the `Z_METADATA` row, its UUID drawn by the server.
    /// One statement per line. Derived attributes get their columns and no triggers: DataStore
    /// computes them in each save's transaction, which a comment at the end says.
    public func postgreSQL(model: Model, metadata: StoreMetadata? = nil) -> String {
        var statements = postgreSQLCreateStatements(model: model)
        statements += primaryKeyRows.map { row in
            #"INSERT INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES ("#
                + "\(row.number), \(literal(row.name)), \(row.superNumber), 0);"
        }
        if let metadata {
            let plist = hexDigits(metadata.binaryPropertyList)
            statements.append(
                #"INSERT INTO "Z_METADATA" ("Z_VERSION", "Z_UUID", "Z_PLIST") VALUES (1, upper(gen_random_uuid()::text), '\x"#
                    + plist + "'::bytea);")
        }
        for derived in derivedAttributes {
            statements.append("-- \(derived.table).\(derived.column) (derived) is computed by DataStore's saves, not by a trigger.")
        }
        return statements.joined(separator: "\n") + "\n"
    }
}

/// Names as PostgreSQL keeps them. PostgreSQL cuts identifiers at 63 bytes, so a longer name
/// (Core Data's index names can be: `Z_5LASTSERVERSYNCEDACTIVEPARTICIPANTS_Z_23…_INDEX`) keeps its
/// first 54 bytes and ends with `_` and 8 hex digits of its SHA-256: still unique, the same on
/// every run, and what every reader of the store must use.
public enum PostgreSQLName {
    public static let maximumLength = 63

    public static func of(_ name: String) -> String {
        guard name.utf8.count > maximumLength else { return name }
        var prefix = Substring(name)
        while prefix.utf8.count > maximumLength - 9 { prefix = prefix.dropLast() }
        let digest = hexDigits(Array(SHA2.sha256(Array(name.utf8)).prefix(4)))
        return "\(prefix)_\(digest)"
    }

    /// The name as PostgreSQL keeps it, in double quotes, for SQL text.
    public static func quoted(_ name: String) -> String { quotedName(of(name)) }
}

/// A name in double quotes, as PostgreSQL keeps it.
private func quotedForPostgreSQL(_ name: String) -> String { PostgreSQLName.quoted(name) }

/// `quoted(_:)`, under a name `PostgreSQLName.quoted` does not hide.
private func quotedName(_ name: String) -> String { quoted(name) }

/// The PostgreSQL type of each column: by the attribute it stores, else by its role.
public struct PostgreSQLColumnTypes: Sendable {
    /// The type of every attribute and of every composite attribute's leaf, by `Entity.attribute`
    /// followed by the leaf's path.
    private var attributeTypes: [[String]: AttributeType] = [:]

    public init(model: Model) {
        for entity in model.entities {
            for attribute in entity.attributes {
                attributeTypes[[entity.name, attribute.name]] = attribute.type
                for leaf in CompositeLayout.leaves(of: attribute, in: model) {
                    attributeTypes[[entity.name, attribute.name] + leaf.path] = leaf.type
                }
            }
        }
    }

    /// The PostgreSQL type of `column`, as `CREATE TABLE` spells it.
    public func type(of column: Column) -> String {
        switch column.role {
        case .primaryKey, .version, .foreignKey, .orderKey, .inverselessToMany: "bigint"
        case .entityNumber, .foreignEntity: "integer"
        case .attribute(let entity, let attribute):
            attributeTypes[[entity, attribute]].map(Self.type(of:)) ?? Self.type(of: column.type)
        case .compositeMember(let entity, let attribute, let path):
            attributeTypes[[entity, attribute] + path].map(Self.type(of:)) ?? Self.type(of: column.type)
        }
    }

    /// The column's type, with the `"C"` collation for text, as `CREATE TABLE` and `ADD COLUMN` spell it.
    public func definition(of column: Column) -> String {
        let type = type(of: column)
        return type == "text" ? #"text COLLATE "C""# : type
    }

    /// The PostgreSQL type of a column holding values of `attribute`.
    public static func type(of attribute: AttributeType) -> String {
        switch attribute {
        case .integer16: "smallint"
        case .integer32: "integer"
        case .integer64, .objectID, .undefined, .composite: "bigint"
        case .boolean: "boolean"
        case .double, .float, .date: "double precision"
        case .decimal: "numeric"
        case .string, .uri: "text"
        case .uuid: "uuid"
        case .binary, .transformable: "bytea"
        }
    }

    /// For a column whose attribute the model does not name: by its SQLite type.
    static func type(of column: ColumnType) -> String {
        switch column {
        case .integer: "bigint"
        case .float, .timestamp: "double precision"
        case .decimal: "numeric"
        case .varchar: "text"
        case .blob: "bytea"
        }
    }
}
