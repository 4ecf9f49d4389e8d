import DataModel
import DataModelParser
import DataStore
import Foundation
import GRDB
import GeneratedBooks
import class GeneratedBooks.Book
import GeneratedFailedBanks
import GeneratedProducts
import Library
import Logging
import PostgreSQLStore
import PostgresNIO
import TestSupport
import Testing

/// Models from `Models/` and fresh store files in a temporary directory.
enum TestStores {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func model(_ bundle: String, version: String? = nil) throws -> Model {
        let loaded = try ModelLoader().load(packageRoot.appendingPathComponent("Models/\(bundle).xcdatamodeld").path, version: version)
        try #require(!loaded.diagnostics.containsErrors)
        return loaded.model
    }

    // The generated models: the classes and compiled definitions of `Tests/Generated/`.
    static let books = Books.model
    static let failedBanks = FailedBanks.model
    static let products = ProductsModel.model
    static let library = Everything.model

    /// A path for a new store file in a fresh temporary directory.
    static func newStoreURL(_ name: String = "Store") -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("DataStoreTests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("\(name).sqlite")
    }

    /// A new store file for `model`.
    static func newStore(_ model: ManagedObjectModel) throws -> PersistentStore {
        try PersistentStore(url: newStoreURL(), model: model)
    }
}

/// The engines the runtime suites run on: SQLite, and PostgreSQL, whose cases are reported as
/// skipped, with the reason, where the tests have no server (`PostgreSQLTestServer`).
enum TestedEngine: String, Sendable, CustomTestStringConvertible {
    case sqlite = "SQLite"
    case postgreSQL = "PostgreSQL"

    static let available: [TestedEngine] = [.sqlite, .postgreSQL]

    var testDescription: String { rawValue }

    /// How many random cases a test runs here: `count` on SQLite, a tenth of it on a server (each
    /// fetch a round trip, and text predicates judged in memory), and `count` on both when the
    /// environment sets it through `variable` for a full run.
    func share(of count: Int, fullCountIn variable: String) -> Int {
        self == .sqlite || ProcessInfo.processInfo.environment[variable] != nil ? count : max(1, count / 10)
    }
}

extension TestStores {
    /// Runs `body` with a new, empty store of `model` on `engine`: a new file, or a new database
    /// dropped afterwards; with persistent history as `history` says, or as the engine's stores
    /// do by default. `body` is synchronous, so it tests the synchronous API on both.
    static func withNewStore(
        _ model: ManagedObjectModel, on engine: TestedEngine, history: HistoryTracking? = nil, _ body: (PersistentStore) throws -> Void
    ) async throws {
        switch engine {
        case .sqlite:
            try body(PersistentStore(url: newStoreURL(), model: model, history: history ?? .automatic))
        case .postgreSQL:
            try await PostgreSQLTestServer.withEmptyDatabase { database in
                let store = try await PersistentStore(postgreSQL: database, model: model, history: history ?? .enabled)
                try $serverDatabase.withValue(database) { try body(store) }
            }
        }
    }

    /// Runs `body` with two stores of `model` on one new file or database, as two processes have.
    static func withNewStores(
        _ model: ManagedObjectModel, on engine: TestedEngine, history: HistoryTracking, _ body: (PersistentStore, PersistentStore) throws -> Void
    ) async throws {
        switch engine {
        case .sqlite:
            let url = newStoreURL()
            try body(PersistentStore(url: url, model: model, history: history), PersistentStore(url: url, model: model, history: history))
        case .postgreSQL:
            try await PostgreSQLTestServer.withEmptyDatabase { database in
                let store = try await PersistentStore(postgreSQL: database, model: model, history: history)
                let other = try await PersistentStore(postgreSQL: database, model: model, history: history)
                try $serverDatabase.withValue(database) { try body(store, other) }
            }
        }
    }

    /// `withNewStore` for a test that awaits.
    static func withNewStore(_ model: ManagedObjectModel, on engine: TestedEngine, awaiting body: (PersistentStore) async throws -> Void) async throws {
        switch engine {
        case .sqlite:
            try await body(newStore(model))
        case .postgreSQL:
            try await PostgreSQLTestServer.withEmptyDatabase { database in
                let store = try await PersistentStore(postgreSQL: database, model: model)
                try await $serverDatabase.withValue(database) { try await body(store) }
            }
        }
    }

    /// The database of the store `withNewStore` made on PostgreSQL.
    @TaskLocal static var serverDatabase: String?

    /// The rows of `sql` in the database of `store`, made by `withNewStore`, each cell as text
    /// (`NULL` for null): what the store wrote, read past it. Identifiers in double quotes, as
    /// both engines read them.
    static func rows(_ sql: String, in store: PersistentStore) throws -> [[String]] {
        if serverDatabase == nil, let url = store.url {
            return try DatabaseQueue(path: url.path).read { db in
                try Row.fetchAll(db, sql: sql).map { row in
                    row.databaseValues.map { value in
                        switch value.storage {
                        case .null: "NULL"
                        case .int64(let integer): String(integer)
                        case .double(let double): String(double)
                        case .string(let string): string
                        case .blob(let data): data.map { String(format: "%02x", $0) }.joined()
                        }
                    }
                }
            }
        }
        let database = try #require(serverDatabase, "a PostgreSQL store made by withNewStore")
        let connection = try PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.next(), configuration: PostgresConnection.Configuration(url: database),
            id: 1, logger: Logger(label: "tests")
        ).wait()
        defer { try? connection.close().wait() }
        return try connection.query(PostgresQuery(unsafeSQL: sql), logger: connection.logger).wait().rows.map { row in
            try row.map { cell in
                guard let bytes = cell.bytes else { return "NULL" }
                if cell.dataType == .bytea { return bytes.readableBytesView.map { String(format: "%02x", $0) }.joined() }
                if let integer = try? cell.decode(Int64.self) { return String(integer) }
                if let double = try? cell.decode(Double.self) { return String(double) }
                return try cell.decode(String.self)
            }
        }
    }
}
