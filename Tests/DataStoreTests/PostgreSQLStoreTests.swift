import DataStore
import Foundation
import Library
import Logging
@testable import PostgreSQLStore
import PostgresNIO
import TestSupport
import Testing

/// The PostgreSQL store, read through the same contexts as a SQLite store: a SQLite store filled
/// with random objects is copied to PostgreSQL (`StoreCopier`, as `datamodel-gen copy-store`
/// copies), and random fetches — predicates of the whole language, sort orders, limits — must give
/// the same objects in the same order, with the same values, from both.
///
/// Runs on the server of `DATAMODELKIT_POSTGRES_URL` (`Scripts/postgres-server.sh start`), each
/// test in a new database. 300 random fetches by default;
/// `DATASTORE_POSTGRES_CASES=5000 swift test --filter PostgreSQLStoreTests` for the full run,
/// `DATASTORE_POSTGRES_SEED` to replay one.
@Suite(.enabled(if: PostgreSQLTestServer.url != nil, PostgreSQLTestServer.unavailableReason))
struct PostgreSQLStoreTests {
    static let cases = ProcessInfo.processInfo.environment["DATASTORE_POSTGRES_CASES"].flatMap(Int.init) ?? 300
    static let seed = ProcessInfo.processInfo.environment["DATASTORE_POSTGRES_SEED"].flatMap(UInt64.init) ?? .random(in: 1...UInt64.max)

    /// A SQLite store of random library objects, and its copy on the server.
    struct Pair {
        let sqlite: PersistentStore
        let postgreSQL: PersistentStore
        /// The PostgreSQL store's URL.
        let database: String
        let objects: RandomLibrary.Objects
        let random: SplitMix64
    }

    static func withRandomLibrary(_ body: (Pair) async throws -> Void) async throws {
        var random = SplitMix64(seed: seed)
        let url = TestStores.newStoreURL()
        let sqlite = try PersistentStore(url: url, model: TestStores.library)
        let objects = try RandomLibrary.populate(sqlite, &random)
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            try await StoreCopier(model: TestStores.library.model).copy(from: .sqlite(url), to: StoreLocation(database))
            let postgreSQL = try await PersistentStore.readOnly(postgreSQL: database, model: TestStores.library)
            try await body(Pair(sqlite: sqlite, postgreSQL: postgreSQL, database: database, objects: objects, random: random))
        }
    }

    /// The number of objects `request` fetches in a new context of `store`.
    static func fetchedCount(_ request: FetchRequest<ManagedObject>, in store: PersistentStore) async throws -> Int {
        try await store.newContext().fetch(request).count
    }

    /// What `body` returns, called where only the synchronous forms of the API are in scope.
    static func synchronously<T>(_ body: () throws -> T) rethrows -> T {
        try body()
    }

    /// An object's entity, key and every attribute value, as both stores must give them.
    static func summary(_ object: ManagedObject) -> String {
        let values = object.entity.attributes.map { attribute in "\(attribute.name)=\(String(describing: object.value(forKey: attribute.name)))" }
        return "\(object.entity.name)/\(object.objectID.primaryKey.map(String.init(describing:)) ?? "?") " + values.joined(separator: " ")
    }

    @Test func randomFetches_matchTheSQLiteStore() async throws {
        try await Self.withRandomLibrary { pair in
            let sqlite = pair.sqlite.newContext(), postgreSQL = pair.postgreSQL.newContext()
            var generator = RandomPredicate(objects: pair.objects, random: pair.random)
            var matchedSome = 0
            for index in 0..<Self.cases {
                let (format, arguments) = generator.predicate(depth: 2)
                var request = FetchRequest<ManagedObject>(entityName: "Book")
                request.predicate = try ObjectPredicate(format: format, arguments: arguments)
                request.sortDescriptors = generator.sortDescriptors()
                if index % 3 == 0 {
                    request.fetchLimit = Int.random(in: 1...10, using: &generator.random)
                    request.fetchOffset = Int.random(in: 0...5, using: &generator.random)
                }
                let label = "case \(index), seed \(Self.seed): \(format) \(arguments) sorted by \(request.sortDescriptors)"
                let expected = try await sqlite.fetch(request).map(Self.summary)
                let fetched = try await postgreSQL.fetch(request).map(Self.summary)
                try #require(fetched == expected, "\(label)\nPostgreSQL: \(fetched.count)  SQLite: \(expected.count)")
                try #require(try await postgreSQL.count(for: request) == expected.count, "\(label): count")
                // The synchronous forms read the same, waiting for the server.
                if index % 10 == 0 {
                    let objects = try Self.synchronously { try postgreSQL.fetch(request) }
                    try #require(objects.map(Self.summary) == expected, "\(label): synchronous fetch")
                }
                if !expected.isEmpty { matchedSome += 1 }
            }
            #expect(matchedSome > Self.cases / 4, "only \(matchedSome) of \(Self.cases) fetches matched anything")
        }
    }

    @Test func relationshipsFaultAndPrefetch_asInTheSQLiteStore() async throws {
        try await Self.withRandomLibrary { pair in
            var request = FetchRequest<ManagedObject>(entityName: "Book")
            request.sortDescriptors = [ObjectSortDescriptor("title"), ObjectSortDescriptor("isbn")]
            /// The values of `key` of the objects of a to-many, in order when ordered.
            func values(_ key: String, of relationship: Any?) -> [String] {
                switch relationship {
                case let ordered as [ManagedObject]: ordered.map { "\($0.value(forKey: key) ?? "nil")" }
                case let unordered as Set<ManagedObject>: unordered.map { "\($0.value(forKey: key) ?? "nil")" }.sorted()
                default: ["not a to-many: \(String(describing: relationship))"]
                }
            }
            func related(_ books: [ManagedObject]) -> [String] {
                books.map { book in
                    let author = (book.value(forKey: "author") as? ManagedObject).map { "\($0.value(forKey: "name") ?? "nil")" } ?? "-"
                    return "\(author) \(values("index", of: book.value(forKey: "chapters"))) \(values("name", of: book.value(forKey: "tags")))"
                }
            }
            let sqlite = pair.sqlite.newContext()
            let expected = related(try await sqlite.fetch(request))
            #expect(expected.contains { !$0.hasPrefix("-") } && expected.contains { $0.contains("[]") == false })
            // Faults fired one by one, the caller waiting for the server…
            let faulting = pair.postgreSQL.newContext()
            #expect(related(try await faulting.fetch(request)) == expected)
            // …or in batches off the caller's isolation.
            request.relationshipKeyPathsForPrefetching = ["author", "chapters", "tags"]
            let prefetching = pair.postgreSQL.newContext()
            let books = try await prefetching.fetch(request)
            let authors = books.compactMap { $0.value(forKey: "author") as? ManagedObject }
            try await prefetching.fulfillFaults(of: authors)
            #expect(related(books) == expected)
        }
    }

    @Test func resultsControllerAndDictionaries_asInTheSQLiteStore() async throws {
        try await Self.withRandomLibrary { pair in
            var request = FetchRequest<ManagedObject>(entityName: "Book")
            request.sortDescriptors = [ObjectSortDescriptor("pageCount"), ObjectSortDescriptor("title", comparator: .localizedStandardCompare)]
            request.fetchBatchSize = 7
            func sections(_ store: PersistentStore) throws -> [String] {
                let controller = FetchedResultsController(fetchRequest: request, context: store.newContext(), sectionNameKeyPath: "pageCount")
                try controller.performFetch()
                return try #require(controller.sections).map { section in "\(section.name): \(section.objects.map(Self.summary))" }
            }
            #expect(try sections(pair.postgreSQL) == sections(pair.sqlite))
            // The asynchronous `performFetch()` reads the same list.
            let controller = FetchedResultsController(fetchRequest: request, context: pair.postgreSQL.newContext(), sectionNameKeyPath: "pageCount")
            try await controller.performFetch()
            let asynchronous = try #require(controller.sections).map { section in "\(section.name): \(section.objects.map(Self.summary))" }
            #expect(try asynchronous == sections(pair.sqlite))

            var totals = FetchRequest<ManagedObject>(entityName: "Book")
            totals.propertiesToFetch = ["isAvailable", .sum("pageCount", as: "pages"), .average("weight", as: "weight"), .count("title", as: "books")]
            totals.propertiesToGroupBy = ["isAvailable"]
            totals.sortDescriptors = [ObjectSortDescriptor("isAvailable")]
            let expected = try await pair.sqlite.newContext().fetchDictionaries(totals).map { "\($0.sorted { $0.key < $1.key })" }
            #expect(try await pair.postgreSQL.newContext().fetchDictionaries(totals).map { "\($0.sorted { $0.key < $1.key })" } == expected)
        }
    }

    @Test func savingFails_theStoreIsReadOnly() async throws {
        try await Self.withRandomLibrary { pair in
            let context = pair.postgreSQL.newContext()
            let author = try context.insertObject(entityName: "Author")
            try author.setValue("New", forKey: "name")
            await #expect(throws: SaveError.self) { try await context.save() }
            #expect(context.hasChanges, "the failed save keeps the changes")
            var request = FetchRequest<ManagedObject>(entityName: "Author")
            request.predicate = try ObjectPredicate(format: "name == 'New'")
            request.includesPendingChanges = false
            #expect(try await context.fetch(request).isEmpty)
        }
    }

    @Test func openingRefusesOtherModelsAndEmptyDatabases() async throws {
        try await Self.withRandomLibrary { pair in
            await #expect {
                _ = try await PersistentStore.readOnly(postgreSQL: pair.database, model: TestStores.books)
            } throws: { error in
                guard case StoreError.modelMismatch(let entities) = error else { return false }
                return !entities.isEmpty
            }
        }
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            await #expect {
                _ = try await PersistentStore.readOnly(postgreSQL: database, model: TestStores.library)
            } throws: { error in
                if case StoreError.notAStore = error { true } else { false }
            }
        }
    }

    @Test func wrongCredentials_areADatabaseError() async throws {
        var url = try PostgreSQLTestServer.requireURL()
        url.user = "nobody_\(UUID().uuidString.prefix(8).lowercased())"
        url.queryItems = [URLQueryItem(name: "sslmode", value: "disable")]
        let text = try #require(url.string)
        await #expect {
            _ = try await PersistentStore.readOnly(postgreSQL: text, model: TestStores.library)
        } throws: { error in
            guard case StoreError.database(let message) = error else { return false }
            return message.contains("nobody_")
        }
    }

    @Test func numericValues_readAsTheServerPrintsThem() async throws {
        let literals = ["0", "-0", "1", "-1", "0.5", "-0.25", "10000", "9999.9999", "123456789.000001", "0.00001234", "1e30", "-1e-30",
                        "3.141592653589793238462643383279502884197", "100.100", "NaN", "Infinity", "-Infinity"]
        let server = try PostgreSQLTestServer.requireURL()
        let configuration = try PostgresConnection.Configuration(url: try #require(server.string) + "?sslmode=disable")
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "tests"))
        for literal in literals {
            let rows = try await connection.query(PostgresQuery(unsafeSQL: "SELECT '\(literal)'::numeric, '\(literal)'::numeric::text"), logger: connection.logger)
            for try await row in rows {
                let cells = Array(row)
                #expect(try PostgreSQLCells.value(of: cells[0]) == cells[1].decode(String.self).databaseValue, "\(literal)")
            }
        }
        try await connection.close()
    }

    @Test func aServerThatDropsTheConnection_failsTheFetchWithATypedError_andTheNextFetchReconnects() async throws {
        try await Self.withRandomLibrary { pair in
            let context = pair.postgreSQL.newContext()
            let books = FetchRequest<ManagedObject>(entityName: "Book")
            let count = try await context.fetch(books).count
            let table = try #require(pair.postgreSQL.entity(named: "Book")).tableName
            let configuration = try PostgresConnection.Configuration(url: pair.database)
            let admin = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "tests"))
            do {
                // Idle connections the server ends are left behind.
                try await admin.query(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
                    logger: admin.logger)
                #expect(try await context.fetch(books).count == count)
                // A fetch whose connection ends while it waits (here, for a lock) runs again on a
                // new connection; when that one ends too, it fails with a typed error.
                try await admin.query("BEGIN", logger: admin.logger)
                try await admin.query(PostgresQuery(unsafeSQL: #"LOCK TABLE "\#(table)" IN ACCESS EXCLUSIVE MODE"#), logger: admin.logger)
                let blocked = Task { try await Self.fetchedCount(books, in: pair.postgreSQL) }
                try await PostgreSQLTestServer.endSessionsWaitingForALock(2, admin: admin)
                // A fetch still waiting long after its two sessions ended would wait for the lock
                // forever: the test then fails, naming what each session waits for, and lets it go.
                let watchdog = Task {
                    try await Task.sleep(for: .seconds(60))
                    Issue.record("the fetch still waits 60 seconds after its sessions ended: \(try await PostgreSQLTestServer.sessions(admin))")
                    try await admin.query("ROLLBACK", logger: admin.logger)
                }
                let outcome = await blocked.result
                watchdog.cancel()
                do {
                    let fetched = try outcome.get()
                    Issue.record("the fetch whose connections ended returned \(fetched) objects")
                } catch {
                    guard case ContextError.database(let message) = error else { throw error }
                    #expect(message.contains("terminating connection due to administrator command"), "\(message)")
                }
                try await admin.query("ROLLBACK", logger: admin.logger)
                #expect(try await context.fetch(books).count == count)
            } catch {
                Issue.record("\(String(reflecting: error))")
            }
            try await admin.close()
        }
    }

    @Test func aFaultTheServerCannotFulfill_staysAFault_andReadsTheRowNextTime() async throws {
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let store = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            let writer = store.newContext()
            let book = Book(context: writer)
            book.notes = "kept"
            try await writer.save()
            let admin = try await PostgresConnection.connect(
                configuration: PostgresConnection.Configuration(url: database), id: 1, logger: Logger(label: "tests"))
            let table = try #require(store.entity(named: "Book")).tableName
            try await admin.query("BEGIN", logger: admin.logger)
            try await admin.query(PostgresQuery(unsafeSQL: #"LOCK TABLE "\#(table)" IN ACCESS EXCLUSIVE MODE"#), logger: admin.logger)
            let id = book.objectID
            let reads = Task { try await Self.notesRead(of: id, in: store, releasing: { try await admin.query("ROLLBACK", logger: admin.logger) }) }
            // The read and the one retry both wait on the lock; both connections are ended.
            try await PostgreSQLTestServer.endSessionsWaitingForALock(2, admin: admin)
            let (whileFailing, stillAFault, afterwards) = try await reads.value
            #expect(whileFailing == nil)
            #expect(stillAFault, "an object whose row could not be read stays a fault")
            #expect(afterwards == "kept", "the next access reads the store's value")
            try await admin.close()
        }
    }

    /// A fault's `notes` read while the server fails the read, whether it is a fault then, and the
    /// `notes` read again after `releasing` lets the server answer.
    static func notesRead(
        of id: ObjectID, in store: PersistentStore, releasing: @Sendable () async throws -> Void
    ) async throws -> (String?, Bool, String?) {
        let context = store.newContext()
        let book = try #require(context.object(with: id) as? Book)
        let whileFailing = book.notes
        let stillAFault = book.isFault
        try await releasing()
        return withExtendedLifetime(context) { (whileFailing, stillAFault, book.notes) }
    }

    @Test func concurrentFetches_shareAtMostTheStoresConnections() async throws {
        try await Self.withRandomLibrary { pair in
            let store = try await PersistentStore.readOnly(postgreSQL: pair.database, model: TestStores.library, maximumConnections: 2)
            let books = FetchRequest<ManagedObject>(entityName: "Book")
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<12 { group.addTask { try await Self.fetchedCount(books, in: store) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(counts == Array(repeating: RandomLibrary.bookCount, count: 12))
            let configuration = try PostgresConnection.Configuration(url: pair.database)
            let admin = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "tests"))
            do {
                // `pair.postgreSQL` ran no query: every connection is the capped store's.
                let rows = try await admin.query(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()", logger: admin.logger)
                for try await connections in rows.decode(Int.self) { #expect(connections <= 2, "\(connections) connections") }
            } catch {
                Issue.record("\(String(reflecting: error))")
            }
            try await admin.close()
        }
    }
}
