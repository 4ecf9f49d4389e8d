import DataModelParser
import DataStore
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
@Suite(.enabled(if: PostgreSQLTestServer.url != nil, PostgreSQLTestServer.unavailableReason))
struct CopyStoreCommandTests {
    /// A path for a new SQLite file.
    static func newStorePath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("Copy.sqlite").path
    }

    /// Every row of every table that has rows, each value with its column and SQLite storage class
    /// (in column name order: a copy may order a table's columns as the model does, where an old
    /// store has them in another order), sorted. Text in a column declared `BLOB` of the model's
    /// layout (a binary attribute's) counts as a blob of its bytes, as a binary attribute reads it.
    static func rows(of path: String, tablesOutsideLayout: Set<String> = []) throws -> [String: [String]] {
        try DatabaseQueue(path: path).read { db in
            var tables: [String: [String]] = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
                let binaryColumns = tablesOutsideLayout.contains(table) ? [] : Set(try db.columns(in: table).filter { $0.type == "BLOB" }.map(\.name))
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier)").map { row -> String in
                    row.columnNames.map { name -> String in
                        let value: DatabaseValue = row[name]
                        return switch value.storage {
                        case .null: "\(name)=NULL"
                        case .int64(let integer): "\(name)=INTEGER \(integer)"
                        case .double(let real): "\(name)=REAL \(real.bitPattern)"
                        case .string(let text) where binaryColumns.contains(name): "\(name)=BLOB \(Data(text.utf8).base64EncodedString())"
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

    /// The SQL of `tables` and of their indexes and triggers, by name.
    static func definitions(of path: String, tables: Set<String>) throws -> [String: String] {
        try DatabaseQueue(path: path).read { db in
            try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL").compactMap { row in
                tables.contains(row["tbl_name"]) ? (row["name"], row["sql"]) : nil
            })
        }
    }

    /// Runs `body` with a connection to the database at `url`.
    @discardableResult
    static func withConnection<Result>(to url: String, _ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        let connection = try await PostgresConnection.connect(configuration: .init(url: url), id: 1, logger: Logger(label: "tests"))
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// The tables of the store at `url` that a copy carried as they are, outside the model's
    /// layout: those with a SQLite definition as their comment.
    static func tablesOutsideLayout(in url: String) async throws -> Set<String> {
        try await withConnection(to: url) { connection in
            let rows = try await connection.query(
                "SELECT relname::text FROM pg_class WHERE relkind = 'r' AND relnamespace = current_schema()::regnamespace AND obj_description(oid, 'pg_class') IS NOT NULL",
                logger: connection.logger)
            var tables: Set<String> = []
            for try await table in rows.decode(String.self) { tables.insert(table) }
            return tables
        }
    }

    /// Copies the store at `path` to a new database and from there to a new file, and checks that
    /// every row comes back with the same values of the same storage classes, and that `inspect`
    /// prints the same objects, and the same persistent history when the store has one.
    func expectRoundTrip(_ path: String, model: [String]) async throws {
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let toServer = try CLITests.runWithPostgreSQL(["copy-store", path, database] + model)
            try #require(toServer.status == 0, "\(toServer.standardError)")
            #expect(toServer.standardError.contains("rows ("))
            let back = try Self.newStorePath()
            let fromServer = try CLITests.runWithPostgreSQL(["copy-store", database, back] + model)
            try #require(fromServer.status == 0, "\(fromServer.standardError)")
            // Tables outside the layout (Core Data's CloudKit mirroring metadata) come back as they were.
            let outside = try await Self.tablesOutsideLayout(in: database)
            #expect(try Self.rows(of: back, tablesOutsideLayout: outside) == Self.rows(of: path, tablesOutsideLayout: outside), "\(path)")
            #expect(try Self.definitions(of: back, tables: outside) == Self.definitions(of: path, tables: outside), "\(path)")
            // `inspect` prints the same from the file, from PostgreSQL, and from the copy back.
            let original = try CLITests.runWithPostgreSQL(["inspect", path] + model)
            let onServer = try CLITests.runWithPostgreSQL(["inspect", database] + model)
            let copied = try CLITests.runWithPostgreSQL(["inspect", back] + model)
            #expect(original.status == 0 && copied.status == 0)
            #expect(onServer.standardOutput == original.standardOutput, "\(onServer.standardError)")
            #expect(copied.standardOutput == original.standardOutput)
            if try Self.rows(of: path)["ATRANSACTION"] != nil {
                let originalHistory = try CLITests.runWithPostgreSQL(["inspect", path, "--history"] + model)
                let serverHistory = try CLITests.runWithPostgreSQL(["inspect", database, "--history"] + model)
                let copiedHistory = try CLITests.runWithPostgreSQL(["inspect", back, "--history"] + model)
                #expect(originalHistory.status == 0 && originalHistory.standardOutput.contains(#""transactions""#))
                #expect(serverHistory.standardOutput == originalHistory.standardOutput)
                #expect(copiedHistory.standardOutput == originalHistory.standardOutput)
            }
        }
    }

    /// Every Core Data store of the corpus, with its persistent history when it has one.
    @Test(arguments: CorpusStore.names())
    func coreDataStore_comesBackFromPostgreSQLUnchanged(name: String) async throws {
        let store = CorpusStore(name)
        try await expectRoundTrip(try store.copyOfStoreFile().path, model: ["--model", try store.modelURL().path])
    }

    /// SwiftData's store, which has no model file, goes to PostgreSQL with the model it carries and
    /// comes back unchanged.
    @Test(.enabled(if: CorpusStore.isAvailable, "needs ../shared/stores-swiftdata"))
    func aStoreWithOnlyItsOwnModel_goesToPostgreSQLAndBack() async throws {
        let folder = CorpusStore.corpus.deletingLastPathComponent().appendingPathComponent("stores-swiftdata/CartKit__CartKitSwiftData_v1")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carried-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let original = directory.appendingPathComponent("CartKit.sqlite")
        try FileManager.default.copyItem(at: folder.appendingPathComponent("CartKitSwiftData_v1.sqlite"), to: original)
        let model = directory.appendingPathComponent("CartKit.xcdatamodel")
        try #require(try CLITests.run("extract-model", original.path, "-o", model.path).status == 0)
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let toServer = try CLITests.runWithPostgreSQL("copy-store", original.path, database)
            try #require(toServer.status == 0, "\(toServer.standardError)")
            let back = directory.appendingPathComponent("Back.sqlite")
            let fromServer = try CLITests.runWithPostgreSQL("copy-store", database, back.path, "--model", model.path)
            try #require(fromServer.status == 0, "\(fromServer.standardError)")
            let before = try CLITests.run("inspect", original.path)
            #expect(!before.standardOutput.isEmpty)
            #expect(try CLITests.run("inspect", back.path).standardOutput == before.standardOutput)
        }
    }

    @Test func everyAttributeType_comesBackFromPostgreSQLUnchanged() async throws {
        let (url, _) = try InspectCommandTests.libraryStore()
        try await expectRoundTrip(url.path, model: ["--model", InspectCommandTests.everything, "--model-version", "Everything 2"])
    }

    /// `inspect` queries a PostgreSQL store as it queries the file; a database without a store,
    /// or one another model version wrote, is reported.
    @Test func inspect_queriesAPostgreSQLStoreAsItQueriesTheFile() async throws {
        let (url, _) = try InspectCommandTests.libraryStore()
        let model = ["--model", InspectCommandTests.everything, "--model-version", "Everything 2"]
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let empty = try CLITests.runWithPostgreSQL(["inspect", database] + model)
            #expect(empty.status == 1)
            #expect(empty.standardError.contains("is not a Core Data store: it has no Z_METADATA row"), "\(empty.standardError)")
            let copy = try CLITests.runWithPostgreSQL(["copy-store", url.path, database] + model)
            try #require(copy.status == 0, "\(copy.standardError)")
            let queries = [
                ["--entity", "Book", "--predicate", "title CONTAINS[cd] 'DISPOSSESSED' AND pageCount > 100", "--sort", "title:desc"],
                ["--entity", "Chapter", "--predicate", "book.author.name BEGINSWITH 'Ursula'", "--count"],
                ["--entity", "Item", "--format", "table"],
            ]
            for query in queries {
                let fromFile = try CLITests.runWithPostgreSQL(["inspect", url.path] + model + query)
                let fromServer = try CLITests.runWithPostgreSQL(["inspect", database] + model + query)
                #expect(fromFile.status == 0 && !fromFile.standardOutput.isEmpty, "\(fromFile.standardError)")
                #expect(fromServer.standardOutput == fromFile.standardOutput, "\(query): \(fromServer.standardError)")
            }
            let otherVersion = try CLITests.runWithPostgreSQL("inspect", database, "--model", InspectCommandTests.everything, "--model-version", "Everything 1")
            #expect(otherVersion.status == 1)
            #expect(otherVersion.standardError.contains("was written by another version of the model"))
        }
    }

    /// A store's history, with deleted objects' preserved values of every storage class (which
    /// PostgreSQL keeps tagged in `bytea`), comes back as it was.
    @Test func persistentHistory_withTombstonesOfEveryType_comesBackFromPostgreSQLUnchanged() async throws {
        let model = try InspectCommandTests.notesModel(attributes: """
            <attribute name="attachment" optional="YES" attributeType="Binary" preserveAfterDeletion="YES"/>
            <attribute name="body" optional="YES" attributeType="String"/>
            <attribute name="rank" optional="YES" attributeType="Integer 64" usesScalarValueType="YES" preserveAfterDeletion="YES"/>
            <attribute name="score" optional="YES" attributeType="Double" usesScalarValueType="YES" preserveAfterDeletion="YES"/>
            <attribute name="title" optional="YES" attributeType="String" preserveAfterDeletion="YES"/>
            """)
        let url = model.deletingLastPathComponent().appendingPathComponent("Notes.sqlite")
        do {
            let store = try PersistentStore(url: url, model: ManagedObjectModel(model: try ModelLoader().load(model.path).model), history: .enabled)
            let context = store.newContext()
            context.transactionAuthor = "importer"
            let notes = try (0..<3).map { index in
                let note = try context.insertObject(entityName: "Note")
                try note.setValue("Note \(index)", forKey: "title")
                try note.setValue(Int64(index - 1) << 40, forKey: "rank")
                try note.setValue(Double(index) / 3, forKey: "score")
                try note.setValue(Data(repeating: UInt8(index), count: index), forKey: "attachment")
                return note
            }
            try await context.save()
            try notes[1].setValue("edited", forKey: "body")
            try await context.save()
            for note in notes { context.delete(note) }
            try await context.save()
        }
        try await expectRoundTrip(url.path, model: ["--model", model.path])
    }

    /// A table the model's layout does not have goes to PostgreSQL and back as it was, its values
    /// of any storage class and its index with it; a table PostgreSQL holds of other origin,
    /// which no SQLite definition describes, is refused rather than left behind.
    @Test func tablesOutsideTheLayout_goAsTheyAre_butOthersAreRefused() async throws {
        let (url, _) = try InspectCommandTests.libraryStore()
        try await DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: """
                CREATE TABLE ZNOTES (ZTEXT VARCHAR, ZCOUNT INTEGER);
                CREATE INDEX ZNOTES_ZTEXT ON ZNOTES (ZTEXT COLLATE BINARY ASC);
                INSERT INTO ZNOTES VALUES ('kept', 1), (x'00ff', 'two'), (2.5, NULL)
                """)
        }
        let model = ["--model", InspectCommandTests.everything, "--model-version", "Everything 2"]
        try await expectRoundTrip(url.path, model: model)
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let toServer = try CLITests.runWithPostgreSQL(["copy-store", url.path, database] + model)
            try #require(toServer.status == 0, "\(toServer.standardError)")
            #expect(try await Self.tablesOutsideLayout(in: database) == ["ZNOTES"])
            try await Self.withConnection(to: database) { connection in
                try await connection.query(#"CREATE TABLE "sessions" ("token" text)"#, logger: connection.logger)
                try await connection.query(#"INSERT INTO "sessions" VALUES ('abc')"#, logger: connection.logger)
            }
            let back = try Self.newStorePath()
            let copy = try CLITests.runWithPostgreSQL(["copy-store", database, back] + model)
            #expect(copy.status == 1)
            #expect(copy.standardError.contains("the source's table sessions holds 1 row and is not part of the model's layout; copying would lose them"))
            #expect(!FileManager.default.fileExists(atPath: back))
        }
    }

    @Test func aValueTheColumnCannotHold_stopsTheCopy_andWritesNothing() async throws {
        let (url, store) = try InspectCommandTests.libraryStore()
        _ = store
        try await DatabaseQueue(path: url.path).write { db in try db.execute(sql: "UPDATE ZITEM SET ZPAGECOUNT = 'many'") }
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let copy = try CLITests.runWithPostgreSQL("copy-store", url.path, database, "--model", InspectCommandTests.everything, "--model-version", "Everything 2")
            #expect(copy.status == 1)
            #expect(copy.standardError.contains("ZITEM.ZPAGECOUNT of the row with Z_PK 1: the value \"many\" cannot be stored as smallint without change"), "\(copy.standardError)")
            // Nothing was left behind: the same copy into the same database now succeeds from the start.
            try await DatabaseQueue(path: url.path).write { db in try db.execute(sql: "UPDATE ZITEM SET ZPAGECOUNT = 387") }
            let retry = try CLITests.runWithPostgreSQL("copy-store", url.path, database, "--model", InspectCommandTests.everything, "--model-version", "Everything 2")
            #expect(retry.status == 0, "\(retry.standardError)")
            // A second copy into a database that holds a store is refused.
            let again = try CLITests.runWithPostgreSQL("copy-store", url.path, database, "--model", InspectCommandTests.everything, "--model-version", "Everything 2")
            #expect(again.status == 1)
            #expect(again.standardError.contains("already holds a store"))
        }
    }

    @Test func anotherModelVersion_isRefused_beforeAnythingIsWritten() async throws {
        let (url, _) = try InspectCommandTests.libraryStore()
        let destination = try Self.newStorePath()
        let copy = try CLITests.runWithPostgreSQL("copy-store", url.path, destination, "--model", InspectCommandTests.everything, "--model-version", "Everything 1")
        #expect(copy.status == 1)
        #expect(copy.standardError.contains("was written by another version of the model"))
        #expect(!FileManager.default.fileExists(atPath: destination))
        #expect(try FileManager.default.contentsOfDirectory(atPath: (destination as NSString).deletingLastPathComponent).isEmpty)
    }

    @Test func aMalformedURL_isReported() throws {
        let copy = try CLITests.runWithPostgreSQL("copy-store", "Library.sqlite", "postgresql://app@host/db?sslmode=sometimes", "--model", InspectCommandTests.everything)
        #expect(copy.status == 1)
        #expect(copy.standardError.contains("unknown sslmode 'sometimes'"))
    }
}
