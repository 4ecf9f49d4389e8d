import DataModel
import DataModelParser
import Foundation
import Logging
import PostgreSQLSchema
import PostgresNIO
import StoreSchema
import Testing
import TestSupport

/// The PostgreSQL DDL of every model — bundled samples and the whole corpus — runs on a real
/// PostgreSQL server (`Scripts/postgres-server.sh`, which `.ci/run` starts; its URL in
/// `DATAMODELKIT_POSTGRES_URL`), and the server's catalog then holds exactly the schema's tables,
/// columns (in order, with their types), indexes and bookkeeping rows.
@Suite(.enabled(if: PostgreSQLTestServer.url != nil, PostgreSQLTestServer.unavailableReason))
struct PostgreSQLSchemaTests {
    static func modelVersions() -> [String] {
        SchemaExecutionTests.sampleVersions() + SchemaExecutionTests.corpusVersions()
    }

    /// Runs `body` on a connection whose `search_path` is a new, empty schema, dropped afterwards.
    func withEmptySchema(_ body: (PostgresConnection) async throws -> Void) async throws {
        let url = try PostgreSQLTestServer.requireURL()
        let configuration = PostgresConnection.Configuration(
            host: url.host ?? "127.0.0.1", port: url.port ?? 5432, username: url.user ?? "postgres",
            password: url.password, database: String(url.path.dropFirst()), tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "tests"))
        let schema = "test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        do {
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"), logger: connection.logger)
            try await connection.query(PostgresQuery(unsafeSQL: "SET search_path TO \(schema)"), logger: connection.logger)
            try await body(connection)
        } catch {
            _ = try? await connection.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"), logger: connection.logger)
            try? await connection.close()
            // PostgresNIO hides the server's message unless asked for it.
            Issue.record("\(String(reflecting: error))")
            throw error
        }
        try await connection.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"), logger: connection.logger)
        try await connection.close()
    }

    @Test(arguments: modelVersions())
    func script_createsTheSchema(path: String) async throws {
        let model = try ModelLoader().load(path).model
        let schema = StoreSchema(model: model)
        let metadata = StoreMetadata(model: model)
        try await withEmptySchema { connection in
            for statement in schema.postgreSQL(model: model, metadata: metadata).split(separator: "\n") where !statement.hasPrefix("--") {
                try await connection.query(PostgresQuery(unsafeSQL: String(statement)), logger: connection.logger)
            }

            // Every table with its columns, in order, as the schema names them.
            var catalog: [String: [(String, String)]] = [:]
            let columns = try await connection.query("""
                SELECT table_name::text, column_name::text, data_type::text FROM information_schema.columns
                WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position
                """, logger: connection.logger)
            for try await (table, column, type) in columns.decode((String, String, String).self) {
                catalog[table, default: []].append((column, type))
            }
            #expect(catalog.count == schema.tables.count + schema.joinTables.count + 3)
            for table in schema.tables {
                let found = catalog[PostgreSQLName.of(table.name)] ?? []
                #expect(found.map(\.0) == table.columns.map { PostgreSQLName.of($0.name) }, "\(path): \(table.name)")
                for (column, (_, type)) in zip(table.columns, found) where column.role == .primaryKey {
                    #expect(type == "bigint")
                }
            }
            for join in schema.joinTables {
                #expect(catalog[PostgreSQLName.of(join.name)]?.map(\.0) == join.columnNames.map(PostgreSQLName.of), "\(path): \(join.name)")
            }

            // Every index, under its name; the bookkeeping rows; the metadata, byte for byte.
            let indexRows = try await connection.query("""
                SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema() AND indexname NOT LIKE '%_pkey'
                """, logger: connection.logger)
            var indexes: Set<String> = []
            for try await name in indexRows.decode(String.self) { indexes.insert(name) }
            #expect(indexes == Set(schema.indexes.map { PostgreSQLName.of($0.name) }), "\(path)")
            let primaryKeys = try await connection.query(#"SELECT count(*) FROM "Z_PRIMARYKEY" WHERE "Z_MAX" = 0"#, logger: connection.logger)
            for try await count in primaryKeys.decode(Int.self) { #expect(count == model.entities.count) }
            let metadataRows = try await connection.query(#"SELECT "Z_UUID", "Z_PLIST" FROM "Z_METADATA" WHERE "Z_VERSION" = 1"#, logger: connection.logger)
            var rows = 0
            for try await (uuid, plist) in metadataRows.decode((String, ByteBuffer).self) {
                rows += 1
                #expect(UUID(uuidString: uuid) != nil && uuid == uuid.uppercased())
                let bytes = Array(plist.readableBytesView)
                #expect(bytes == metadata.binaryPropertyList)
                #expect(try StoreMetadata(binaryPropertyList: bytes).versionHashes == ModelVersionHashes(model: model))
            }
            #expect(rows == 1)
        }
    }

    @Test func attributeTypes_mapToPostgreSQLTypes() async throws {
        let path = TestPaths.packageRoot.appendingPathComponent("Models/Everything.xcdatamodeld").path
        let model = try ModelLoader().load(path).model
        try await withEmptySchema { connection in
            for statement in StoreSchema(model: model).postgreSQL(model: model).split(separator: "\n") where !statement.hasPrefix("--") {
                try await connection.query(PostgresQuery(unsafeSQL: String(statement)), logger: connection.logger)
            }
            let columns = try await connection.query("""
                SELECT column_name::text, data_type::text FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = 'ZITEM'
                """, logger: connection.logger)
            var types: [String: String] = [:]
            for try await (column, type) in columns.decode((String, String).self) { types[column] = type }
            #expect(types["ZISAVAILABLE"] == "boolean")
            #expect(types["ZPAGECOUNT"] == "smallint")
            #expect(types["ZWORDCOUNT"] == "integer")
            #expect(types["ZFILESIZE"] == "bigint")
            #expect(types["ZPUBLISHED"] == "double precision")
            #expect(types["ZRATING"] == "double precision")
            #expect(types["ZPRICE"] == "numeric")
            #expect(types["ZTITLE"] == "text")
            #expect(types["ZIDENTIFIER"] == "uuid")
            #expect(types["ZCOVER"] == "bytea")
            #expect(types["Z_ENT"] == "integer")
            #expect(types["ZAUTHOR"] == "bigint")
        }
    }

    @Test func longNames_areShortenedTheSameWayEveryTime() {
        let long = "Z_5LASTSERVERSYNCEDACTIVEPARTICIPANTS_Z_23LASTSERVERSYNCEDACTIVEPARTICIPANTS_INDEX"
        let short = PostgreSQLName.of(long)
        #expect(short.utf8.count == 63)
        #expect(short.hasPrefix(String(long.prefix(54))))
        #expect(short == PostgreSQLName.of(long))
        #expect(short != PostgreSQLName.of(long + "2"))
        #expect(PostgreSQLName.of("ZBOOK") == "ZBOOK")
    }
}
