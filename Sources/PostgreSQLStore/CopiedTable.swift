import DataModel
import PostgreSQLSchema
import StoreSchema

/// One table a copy moves: its name and columns as Core Data's layout names them, each with the
/// type its values take in PostgreSQL.
struct CopiedTable: Sendable {
    struct CopiedColumn: Sendable {
        var name: String
        var type: PostgreSQLValueType
    }

    var name: String
    var columns: [CopiedColumn]
    /// For a table outside the model's layout, the SQLite statements that create it and its
    /// indexes and triggers; its values are then kept in PostgreSQL as `anyValue`.
    var sqliteDefinition: [String]? = nil

    /// A table outside the model's layout, with `columns`, which `definition` creates in SQLite.
    static func outsideLayout(_ name: String, columns: some Sequence<String>, definition: [String]) -> CopiedTable {
        CopiedTable(name: name, columns: columns.map { CopiedColumn(name: $0, type: .anyValue) }, sqliteDefinition: definition)
    }

    /// Every table of a store with `schema`'s layout, objects' tables first, then join tables, then
    /// the bookkeeping.
    static func tables(of schema: StoreSchema, model: Model) -> [CopiedTable] {
        let types = PostgreSQLColumnTypes(model: model)
        let entityTables = schema.tables.map { table in
            CopiedTable(name: table.name, columns: table.columns.map { CopiedColumn(name: $0.name, type: PostgreSQLValueType(types.type(of: $0))) })
        }
        let joinTables = schema.joinTables.map { join in
            CopiedTable(name: join.name, columns: join.columnNames.map { CopiedColumn(name: $0, type: .bigint) })
        }
        return entityTables + joinTables + bookkeeping
    }

    /// The tables every store has, as `StoreSchema.postgreSQLBookkeepingTables` creates them.
    static let bookkeeping = [
        primaryKeys,
        CopiedTable(
            name: "Z_METADATA", columns: [.init(name: "Z_VERSION", type: .integer), .init(name: "Z_UUID", type: .text), .init(name: "Z_PLIST", type: .bytea)]),
        CopiedTable(name: "Z_MODELCACHE", columns: [.init(name: "Z_CONTENT", type: .bytea)]),
    ]

    /// The persistent history's tables, with `tombstoneColumns` tombstone columns.
    static func history(tombstoneColumns: Int) -> [CopiedTable] {
        let tombstones = Set((0..<tombstoneColumns).map(HistorySchema.tombstoneColumn))
        return HistorySchema.postgreSQLTables(tombstoneColumns: tombstoneColumns).map { table in
            CopiedTable(name: table.name, columns: table.columns.map { column in
                CopiedColumn(name: column.name, type: tombstones.contains(column.name) ? .anyValue : PostgreSQLValueType(column.type))
            })
        }
    }

    /// `Z_PRIMARYKEY`: each entity's number, name, parent and largest primary key.
    static let primaryKeys = CopiedTable(
        name: "Z_PRIMARYKEY",
        columns: [.init(name: "Z_ENT", type: .integer), .init(name: "Z_NAME", type: .text), .init(name: "Z_SUPER", type: .integer), .init(name: "Z_MAX", type: .bigint)])
}

/// The PostgreSQL types Core Data's layout maps to (`StoreSchema.postgreSQLCreateStatements`).
enum PostgreSQLValueType: String, Sendable {
    case smallint, integer, bigint, boolean, double = "double precision", numeric, text, uuid, bytea
    /// `bytea` holding a value of any SQLite storage class, tagged: a history tombstone's, or any
    /// value of a table outside the model's layout.
    case anyValue = "bytea (tagged)"

    /// The type `PostgreSQLColumnTypes` spells `declaration`.
    init(_ declaration: String) {
        guard let type = Self(rawValue: declaration) else { preconditionFailure("no PostgreSQL value type '\(declaration)'") }
        self = type
    }
}
