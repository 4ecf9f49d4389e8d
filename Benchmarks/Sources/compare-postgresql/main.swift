// The PostgreSQL store against its floor and its peer, interleaved round by round, on one server:
//
// - Fetch 100k: the 100,000 items of the runtime benchmarks fetched into objects; the floor is
//   PostgresNIO decoding the same rows into structs itself, the least any reader of those rows
//   through PostgresNIO does.
// - Insert 100k: 100,000 new items saved in one transaction, with the persistent history that
//   carries the save to other processes (a change row per object) and without; the floor is
//   PostgresNIO's batched multi-row `INSERT`s of the same values, typed, in one transaction.
// - Fluent (`fluent-postgres-driver`) on the same tables, with the same `FluentItem` model as the
//   SQLite comparison: the class-per-row ORM of server Swift.
//
// The fetches read a database the items were copied into (as `copy-store` copies); the inserts
// write to a second database, emptied before each one. Both are created for the run and dropped
// after it.
//
//     DATAMODELKIT_POSTGRES_URL=postgresql://user@host:port/database swift run -c release compare-postgresql [ROUNDS]
//
// (default 20 rounds; `Scripts/postgres-server.sh start` prints such a URL.)
import DataStore
import FluentFixtures
import Foundation
import Logging
import PostgreSQLStore
import PostgresNIO
import StoreFixtures

let rounds = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 20
guard let server = ProcessInfo.processInfo.environment["DATAMODELKIT_POSTGRES_URL"].flatMap(URLComponents.init(string:)) else {
    print("set DATAMODELKIT_POSTGRES_URL to a PostgreSQL server's URL (Scripts/postgres-server.sh start prints one)")
    exit(2)
}

/// An item as the floor decodes it.
struct ItemRow {
    var key: Int64
    var version: Int64
    var added: Double?
    var isActive: Bool
    var name: String?
    var price: Double
    var quantity: Int64
}

let logger = Logger(label: "compare-postgresql")
let adminURL = {
    var url = server
    url.queryItems = [URLQueryItem(name: "sslmode", value: "disable")]
    return url
}()
let admin = try await PostgresConnection.connect(configuration: PostgresConnection.Configuration(url: adminURL.string!), id: 1, logger: logger)

/// A new database's URL.
@MainActor func newDatabase() async throws -> (name: String, url: String) {
    let name = "bench_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
    _ = try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger).get()
    var url = adminURL
    url.path = "/\(name)"
    return (name, url.string!)
}

let fetched = try await newDatabase(), inserted = try await newDatabase(), insertedAlone = try await newDatabase()
try await StoreCopier(model: StoreFixtures.model.model).copy(from: .sqlite(StoreFixtures.filledStoreURL()), to: StoreLocation(fetched.url))
let store = try await PersistentStore(postgreSQL: fetched.url, model: StoreFixtures.model)
let insertStore = try await PersistentStore(postgreSQL: inserted.url, model: StoreFixtures.model)
// Without the history that carries each save to other processes: what a store one process writes needs.
let insertStoreAlone = try await PersistentStore(postgreSQL: insertedAlone.url, model: StoreFixtures.model, history: .disabledDeletingHistory)
let connection = try await PostgresConnection.connect(configuration: PostgresConnection.Configuration(url: fetched.url), id: 2, logger: logger)
let insertConnection = try await PostgresConnection.connect(configuration: PostgresConnection.Configuration(url: inserted.url), id: 3, logger: logger)
let aloneConnection = try await PostgresConnection.connect(configuration: PostgresConnection.Configuration(url: insertedAlone.url), id: 4, logger: logger)
let fluent = try FluentPostgreSQLPeer(url: fetched.url), fluentInserting = try FluentPostgreSQLPeer(url: inserted.url)
let floorQuery: PostgresQuery = #"SELECT "Z_PK", "Z_OPT", "ZADDED", "ZISACTIVE", "ZNAME", "ZPRICE", "ZQUANTITY" FROM "ZITEM""#

func expectAll(_ count: Int) {
    precondition(count == StoreFixtures.objectCount, "\(count) objects")
}

/// Empties an insert database's items (and history), outside the timings.
func emptyInsertedItems(_ connection: PostgresConnection = insertConnection) async throws {
    _ = try await connection.query(#"TRUNCATE "ZITEM""#, logger: logger).get()
    _ = try await connection.query(#"DO $$ BEGIN IF to_regclass('"ACHANGE"') IS NOT NULL THEN TRUNCATE "ACHANGE", "ATRANSACTION"; END IF; END $$"#, logger: logger).get()
    _ = try await connection.query(#"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = 0"#, logger: logger).get()
}

/// The floor's insert: the items' values bound with their types, as many rows to a statement as
/// PostgreSQL's 65,535 parameters allow, in one transaction.
func insertRows() async throws {
    let columns = 8, rowsPerStatement = 65_535 / 8
    _ = try await insertConnection.query("BEGIN", logger: logger).get()
    for start in stride(from: 0, to: StoreFixtures.objectCount, by: rowsPerStatement) {
        let end = min(start + rowsPerStatement, StoreFixtures.objectCount)
        var text = #"INSERT INTO "ZITEM" ("Z_PK", "Z_ENT", "Z_OPT", "ZADDED", "ZISACTIVE", "ZNAME", "ZPRICE", "ZQUANTITY") VALUES "#
        var bindings = PostgresBindings(capacity: (end - start) * columns)
        for index in start..<end {
            let first = (index - start) * columns
            text += (index == start ? "(" : ", (") + (1...columns).map { "$\(first + $0)" }.joined(separator: ", ") + ")"
            bindings.append(Int64(index + 1))
            bindings.append(Int64(1))
            bindings.append(Int64(1))
            bindings.append(StoreFixtures.added(index).timeIntervalSinceReferenceDate)
            bindings.append(index % 2 == 0)
            bindings.append(StoreFixtures.name(index))
            bindings.append(StoreFixtures.price(index))
            bindings.append(Int64(index))
        }
        _ = try await insertConnection.query(PostgresQuery(unsafeSQL: text, binds: bindings), logger: logger).get()
    }
    _ = try await insertConnection.query(#"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = 100000 WHERE "Z_ENT" = 1"#, logger: logger).get()
    _ = try await insertConnection.query("COMMIT", logger: logger).get()
}

/// The number of items an insert database holds.
func insertedCount(_ connection: PostgresConnection = insertConnection) async throws -> Int {
    let rows = try await connection.query(#"SELECT count(*) FROM "ZITEM""#, logger: logger).get()
    return try rows.rows.first!.decode(Int.self)
}

/// Saves 100,000 new items in one context, asynchronously.
func insertObjects(into store: PersistentStore) async throws {
    let context = store.newContext()
    for index in 0..<StoreFixtures.objectCount {
        let item = Item(context: context)
        item.name = StoreFixtures.name(index)
        item.price = StoreFixtures.price(index)
        item.quantity = Int64(index)
        item.isActive = index % 2 == 0
        item.added = StoreFixtures.added(index)
    }
    try await context.save()
}

let timings = RoundTimings()
let fetchFloor = "Fetch 100k: PostgresNIO, all rows, decoded into structs"
let streamed = "Fetch 100k: PostgresNIO, rows streamed, decoded"
let fetchObjects = "Fetch 100k: DataStore objects"
let fetchFluent = "Fetch 100k: Fluent models"
let insertFloor = "Insert 100k: PostgresNIO, batched INSERTs"
let insertDataStore = "Insert 100k: DataStore, one save"
let insertDataStoreAlone = "Insert 100k: DataStore, one save, no history"
let insertFluent = "Insert 100k: Fluent, create in batches"
for round in 0..<rounds {
    try await timings.measure(fetchFloor) {
        var items: [ItemRow] = []
        items.reserveCapacity(StoreFixtures.objectCount)
        let result = try await connection.query(floorQuery, logger: logger).get()
        for row in result.rows {
            let (key, version, added, isActive, name, price, quantity) = try row.decode((Int64, Int64, Double?, Bool, String?, Double, Int64).self)
            items.append(ItemRow(key: key, version: version, added: added, isActive: isActive, name: name, price: price, quantity: quantity))
        }
        expectAll(items.count)
    }
    // Streaming is 20× slower than the whole result: a few rounds show it.
    if round < 3 {
        try await timings.measure(streamed) {
            var items: [ItemRow] = []
            items.reserveCapacity(StoreFixtures.objectCount)
            let rows = try await connection.query(floorQuery, logger: logger)
            for try await (key, version, added, isActive, name, price, quantity) in rows.decode((Int64, Int64, Double?, Bool, String?, Double, Int64).self) {
                items.append(ItemRow(key: key, version: version, added: added, isActive: isActive, name: name, price: price, quantity: quantity))
            }
            expectAll(items.count)
        }
    }
    try await timings.measure(fetchObjects) {
        let items = try await store.newContext().fetch(FetchRequest<Item>())
        expectAll(items.count)
        precondition(items[12].name == StoreFixtures.name(Int(items[12].objectID.primaryKey!) - 1), "values read back")
    }
    try await timings.measure(fetchFluent) {
        expectAll(try await fluent.fetchAll().count)
    }
    try await emptyInsertedItems()
    try await timings.measure(insertFloor) { try await insertRows() }
    expectAll(try await insertedCount())
    try await emptyInsertedItems()
    try await timings.measure(insertDataStore) { try await insertObjects(into: insertStore) }
    expectAll(try await insertedCount())
    try await emptyInsertedItems(aloneConnection)
    try await timings.measure(insertDataStoreAlone) { try await insertObjects(into: insertStoreAlone) }
    expectAll(try await insertedCount(aloneConnection))
    try await emptyInsertedItems()
    try await timings.measure(insertFluent) { try await fluentInserting.insertAll() }
    expectAll(try await insertedCount())
}

await fluent.shutdown()
await fluentInserting.shutdown()
try await connection.closeGracefully()
try await insertConnection.closeGracefully()
try await aloneConnection.closeGracefully()
for database in [fetched, inserted, insertedAlone] {
    _ = try await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(database.name) WITH (FORCE)"), logger: logger).get()
}
try await admin.closeGracefully()

print("\(rounds) interleaved rounds, medians:")
for name in [fetchFloor, streamed, fetchObjects, fetchFluent, insertFloor, insertDataStore, insertDataStoreAlone, insertFluent] {
    print(String(format: "  %-52@ %8.1f ms", name as NSString, timings.median(name)))
}
print(String(format: "Fetch: DataStore ÷ PostgresNIO floor: %.2f×, Fluent ÷ DataStore: %.2f×",
             timings.median(fetchObjects) / timings.median(fetchFloor), timings.median(fetchFluent) / timings.median(fetchObjects)))
print(String(format: "Insert: DataStore ÷ PostgresNIO floor: %.2f× (%.2f× without history), Fluent ÷ DataStore: %.2f×",
             timings.median(insertDataStore) / timings.median(insertFloor), timings.median(insertDataStoreAlone) / timings.median(insertFloor),
             timings.median(insertFluent) / timings.median(insertDataStore)))
