import DataModelParser
import Foundation
import GRDB
import Logging
import PostgreSQLStore
import PostgresNIO
import Testing
import TestSupport

/// `datamodel-gen copy-store`: stores go to PostgreSQL and back without losing or changing a value,
/// and a copy that cannot be made whole writes nothing. Runs on the PostgreSQL server of
/// `DATAMODELKIT_POSTGRES_URL` (`Scripts/postgres-server.sh start`), each test in a new database.
@Suite(.enabled(if: PostgreSQLServer.url != nil, "needs DATAMODELKIT_POSTGRES_URL (Scripts/postgres-server.sh start)"))
struct CopyStoreCommandTests {
    /// Runs `body` with the URL of a new, empty database, dropped afterwards.
    func withEmptyDatabase(_ body: (String) async throws -> Void) async throws {
        let server = try #require(PostgreSQLServer.url)
        let configuration = try PostgresConnection.Configuration(url: try #require(server.string) + "?sslmode=disable")
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "tests"))
        let name = "copy_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: connection.logger)
        var url = server
        url.path = "/\(name)"
        url.queryItems = [URLQueryItem(name: "sslmode", value: "disable")]
        do {
            try await body(try #require(url.string))
        } catch {
            _ = try? await connection.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)"), logger: connection.logger)
            try? await connection.close()
            throw error
        }
        try await connection.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)"), logger: connection.logger)
        try await connection.close()
    }

    /// A path for a new SQLite file.
    static func newStorePath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("Copy.sqlite").path
    }

    /// Every row of every table that has rows, each value with its column and SQLite storage class
    /// (in column name order: a copy may order a table's columns as the model does, where an old
    /// store has them in another order), sorted.
    static func rows(of path: String) throws -> [String: [String]] {
        try DatabaseQueue(path: path).read { db in
            var tables: [String: [String]] = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier)").map { row -> String in
                    row.columnNames.map { name -> String in
                        let value: DatabaseValue = row[name]
                        return switch value.storage {
                        case .null: "\(name)=NULL"
                        case .int64(let integer): "\(name)=INTEGER \(integer)"
                        case .double(let real): "\(name)=REAL \(real.bitPattern)"
                        case .string(let text): "\(name)=TEXT \(text)"
                        case .blob(let data): "\(name)=BLOB \(data.base64EncodedString())"
                        }
                    }.sorted().joined(separator: " | ")
                }
                if !rows.isEmpty { tables[table] = rows.sorted() }
            }
            return tables
        }
    }

    /// Copies the store at `path` to a new database and from there to a new file, and checks that
    /// every row comes back with the same values of the same storage classes, and that `inspect`
    /// prints the same objects.
    func expectRoundTrip(_ path: String, model: [String]) async throws {
        try await withEmptyDatabase { database in
            let toServer = try CLITests.run(["copy-store", path, database] + model)
            try #require(toServer.status == 0, "\(toServer.standardError)")
            #expect(toServer.standardError.contains("rows ("))
            let back = try Self.newStorePath()
            let fromServer = try CLITests.run(["copy-store", database, back] + model)
            try #require(fromServer.status == 0, "\(fromServer.standardError)")
            #expect(try Self.rows(of: back) == Self.rows(of: path), "\(path)")
            let original = try CLITests.run(["inspect", path] + model)
            let copied = try CLITests.run(["inspect", back] + model)
            #expect(original.status == 0 && copied.status == 0)
            #expect(copied.standardOutput == original.standardOutput)
        }
    }

    /// Every Core Data store of the corpus, except those with persistent history, which the copy
    /// refuses rather than leave behind.
    @Test(arguments: CorpusStore.names())
    func coreDataStore_comesBackFromPostgreSQLUnchanged(name: String) async throws {
        let store = CorpusStore(name)
        let path = try store.copyOfStoreFile().path
        let model = ["--model", try store.modelURL().path]
        guard try Self.rows(of: path)["ACHANGE"] == nil else {
            try await withEmptyDatabase { database in
                let copy = try CLITests.run(["copy-store", path, database] + model)
                #expect(copy.status == 1)
                #expect(copy.standardError.contains("is not part of the model's layout; copying would lose them"))
            }
            return
        }
        try await expectRoundTrip(path, model: model)
    }

    @Test func everyAttributeType_comesBackFromPostgreSQLUnchanged() async throws {
        let (url, _) = try InspectCommandTests.libraryStore()
        try await expectRoundTrip(url.path, model: ["--model", InspectCommandTests.everything, "--model-version", "Everything 2"])
    }

    @Test func aValueTheColumnCannotHold_stopsTheCopy_andWritesNothing() async throws {
        let (url, store) = try InspectCommandTests.libraryStore()
        _ = store
        try await DatabaseQueue(path: url.path).write { db in try db.execute(sql: "UPDATE ZITEM SET ZPAGECOUNT = 'many'") }
        try await withEmptyDatabase { database in
            let copy = try CLITests.run("copy-store", url.path, database, "--model", InspectCommandTests.everything, "--model-version", "Everything 2")
            #expect(copy.status == 1)
            #expect(copy.standardError.contains("ZITEM.ZPAGECOUNT of the row with Z_PK 1: the value \"many\" cannot be stored as smallint without change"), "\(copy.standardError)")
            // Nothing was left behind: the same copy into the same database now succeeds from the start.
            try await DatabaseQueue(path: url.path).write { db in try db.execute(sql: "UPDATE ZITEM SET ZPAGECOUNT = 387") }
            let retry = try CLITests.run("copy-store", url.path, database, "--model", InspectCommandTests.everything, "--model-version", "Everything 2")
            #expect(retry.status == 0, "\(retry.standardError)")
            // A second copy into a database that holds a store is refused.
            let again = try CLITests.run("copy-store", url.path, database, "--model", InspectCommandTests.everything, "--model-version", "Everything 2")
            #expect(again.status == 1)
            #expect(again.standardError.contains("already holds a store"))
        }
    }

    @Test func anotherModelVersion_isRefused_beforeAnythingIsWritten() async throws {
        let (url, _) = try InspectCommandTests.libraryStore()
        let destination = try Self.newStorePath()
        let copy = try CLITests.run("copy-store", url.path, destination, "--model", InspectCommandTests.everything, "--model-version", "Everything 1")
        #expect(copy.status == 1)
        #expect(copy.standardError.contains("was written by another version of the model"))
        #expect(!FileManager.default.fileExists(atPath: destination))
        #expect(try FileManager.default.contentsOfDirectory(atPath: (destination as NSString).deletingLastPathComponent).isEmpty)
    }

    @Test func aMalformedURL_isReported() throws {
        let copy = try CLITests.run("copy-store", "Library.sqlite", "postgresql://app@host/db?sslmode=sometimes", "--model", InspectCommandTests.everything)
        #expect(copy.status == 1)
        #expect(copy.standardError.contains("unknown sslmode 'sometimes'"))
    }
}

/// The server the PostgreSQL tests use: `DATAMODELKIT_POSTGRES_URL`.
enum PostgreSQLServer {
    static let url = ProcessInfo.processInfo.environment["DATAMODELKIT_POSTGRES_URL"].flatMap(URLComponents.init(string:))
}
