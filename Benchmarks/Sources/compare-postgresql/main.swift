// The PostgreSQL store against its floor, interleaved round by round: fetching the 100,000 items
// of the runtime benchmarks into objects, and PostgresNIO decoding the same rows into structs
// itself — the least any reader of those rows through PostgresNIO does. Both read from one
// database on the server, created for the run (the items copied there as `copy-store` copies) and
// dropped after it.
//
//     DATAMODELKIT_POSTGRES_URL=postgresql://user@host:port/database swift run -c release compare-postgresql [ROUNDS]
//
// (default 20 rounds; `Scripts/postgres-server.sh start` prints such a URL.)
import DataStore
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
var adminURL = server
adminURL.queryItems = [URLQueryItem(name: "sslmode", value: "disable")]
let admin = try await PostgresConnection.connect(configuration: PostgresConnection.Configuration(url: adminURL.string!), id: 1, logger: logger)
let name = "bench_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
_ = try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger).get()
var databaseURL = adminURL
databaseURL.path = "/\(name)"
let url = databaseURL.string!

try await StoreCopier(model: StoreFixtures.model.model).copy(from: .sqlite(StoreFixtures.filledStoreURL()), to: StoreLocation(url))
let store = try await PersistentStore.readOnly(postgreSQL: url, model: StoreFixtures.model)
let connection = try await PostgresConnection.connect(configuration: PostgresConnection.Configuration(url: url), id: 2, logger: logger)
let floorQuery: PostgresQuery = #"SELECT "Z_PK", "Z_OPT", "ZADDED", "ZISACTIVE", "ZNAME", "ZPRICE", "ZQUANTITY" FROM "ZITEM""#

func expectAll(_ count: Int) {
    precondition(count == StoreFixtures.objectCount, "\(count) objects fetched")
}

let timings = RoundTimings()
let floor = "Fetch 100k: PostgresNIO, all rows, decoded into structs"
let streamed = "Fetch 100k: PostgresNIO, rows streamed, decoded"
let dataStore = "Fetch 100k: DataStore objects"
for _ in 0..<rounds {
    try await timings.measure(floor) {
        var items: [ItemRow] = []
        items.reserveCapacity(StoreFixtures.objectCount)
        let result = try await connection.query(floorQuery, logger: logger).get()
        for row in result.rows {
            let (key, version, added, isActive, name, price, quantity) = try row.decode((Int64, Int64, Double?, Bool, String?, Double, Int64).self)
            items.append(ItemRow(key: key, version: version, added: added, isActive: isActive, name: name, price: price, quantity: quantity))
        }
        expectAll(items.count)
    }
    try await timings.measure(streamed) {
        var items: [ItemRow] = []
        items.reserveCapacity(StoreFixtures.objectCount)
        let rows = try await connection.query(floorQuery, logger: logger)
        for try await (key, version, added, isActive, name, price, quantity) in rows.decode((Int64, Int64, Double?, Bool, String?, Double, Int64).self) {
            items.append(ItemRow(key: key, version: version, added: added, isActive: isActive, name: name, price: price, quantity: quantity))
        }
        expectAll(items.count)
    }
    try await timings.measure(dataStore) {
        let items = try await store.newContext().fetch(FetchRequest<Item>())
        expectAll(items.count)
        precondition(items[12].name == StoreFixtures.name(Int(items[12].objectID.primaryKey!) - 1), "values read back")
    }
}

try await connection.closeGracefully()
_ = try await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)"), logger: logger).get()
try await admin.closeGracefully()

print("\(rounds) interleaved rounds, medians:")
for name in [floor, streamed, dataStore] { print(String(format: "  %-52@ %8.1f ms", name as NSString, timings.median(name))) }
print(String(format: "DataStore ÷ PostgresNIO floor: %.2f×", timings.median(dataStore) / timings.median(floor)))
