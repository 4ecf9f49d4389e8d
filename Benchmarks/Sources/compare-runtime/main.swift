// The runtime benchmarks' comparisons with every contender interleaved round by round: each round
// runs the floor, the peer and DataStore once, one after another, so that all of them meet the same
// machine conditions. On a shared machine the benchmark package's runs, one benchmark after another,
// can see one contender at a quieter moment than the next (a spread of ±30% in one run has been
// seen); here a ratio is the ratio of the medians of interleaved rounds.
//
//     swift run -c release compare-runtime [ROUNDS]     (default 30)
import DataStore
import Foundation
import GRDB
import GRDBSQLite
import StoreFixtures

let rounds = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 30

let timings = RoundTimings()

/// Checks that a fetch read every object.
func expectAll(_ count: Int) {
    precondition(count == StoreFixtures.objectCount, "\(count) objects fetched")
}

/// One line per contender of a comparison: its median and its ratio to the floor.
@MainActor func report(_ title: String, floor: String, _ contenders: [String]) {
    print(title)
    for name in [floor] + contenders {
        let ratio = timings.median(name) / timings.median(floor)
        print("  \(name.padding(toLength: 34, withPad: " ", startingAt: 0)) \(String(format: "%7.1f ms  %5.2f×", timings.median(name), ratio))")
    }
}

let filled = try StoreFixtures.filledStoreURL()
let store = try PersistentStore(url: filled, model: StoreFixtures.model)
let db = RawSQLite.open(filled)
PredicateFixture.registerRawFunction(db)
let pool = try DatabasePool(path: filled.path)
let predicatePool = try PredicateFixture.grdbPool(filled)
let predicateRequest = try PredicateFixture.request()

for _ in 0..<rounds {
    // Each closure lets its objects go before it returns, so releasing them is timed too.
    timings.measure("fetch: C API structs") { expectAll(RawSQLite.fetchAll(db).count) }
    timings.measure("fetch: C API class instances") { expectAll(RawSQLite.fetchAllObjects(db).count) }
    try timings.measure("fetch: GRDB records") {
        expectAll(try pool.read { db in try ItemRecord.fetchAll(db, sql: ItemRecord.selection) }.count)
    }
    try timings.measure("fetch: DataStore objects") { expectAll(try store.newContext().fetch(FetchRequest<Item>()).count) }

    timings.measure("predicate: C API structs") { expectAll(PredicateFixture.rawFetch(db).count) }
    try timings.measure("predicate: GRDB records") { expectAll(try PredicateFixture.grdbFetch(predicatePool).count) }
    try timings.measure("predicate: DataStore objects") { expectAll(try store.newContext().fetch(predicateRequest).count) }
}

// Inserts need an empty store each: fewer rounds, each with new files made outside the timing.
let insertRounds = max(3, rounds / 3)
for _ in 0..<insertRounds {
    let raw = RawSQLite.open(try StoreFixtures.emptyStoreURL())
    timings.measure("insert: C API") { RawSQLite.insertAll(raw) }
    sqlite3_close(raw)
    let records = try DatabasePool(path: try StoreFixtures.emptyStoreURL().path)
    try timings.measure("insert: GRDB records") { try ItemRecord.insertAll(records) }
    let context = try PersistentStore(url: try StoreFixtures.emptyStoreURL(), model: StoreFixtures.model).newContext()
    try timings.measure("insert: DataStore objects") { try StoreFixtures.insertAll(into: context) }
}

print("Medians of \(rounds) interleaved rounds (inserts: \(insertRounds)); ratios to the floor")
report("Fetch 100k", floor: "fetch: C API structs", ["fetch: C API class instances", "fetch: GRDB records", "fetch: DataStore objects"])
report("Predicate fetch 100k", floor: "predicate: C API structs", ["predicate: GRDB records", "predicate: DataStore objects"])
report("Insert 100k", floor: "insert: C API", ["insert: GRDB records", "insert: DataStore objects"])
print(String(format: "DataStore fetch ÷ GRDB fetch: %.2f×", timings.median("fetch: DataStore objects") / timings.median("fetch: GRDB records")))
