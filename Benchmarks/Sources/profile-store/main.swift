// Loops one runtime operation for profilers (perf, valgrind) and prints the fastest and the median
// round: profile-store insert|insert-floor[-objects]|insert-constrained|upsert|update|delete|update-floor|delete-floor|fetch|predicate|computed|read|traverse|traverse-floor[-uniqued]|list-insert-delete|list-first-change[-10k]|list-move
// [ROUNDS]; fetch-floor, fetch-floor-objects, fetch-floor-uniqued, predicate-floor, computed-floor (SQLite's C API: structs, one plain
// class instance per row, or one kept in an identity map) and fetch-peer, predicate-peer (GRDB records) profile the contenders the
// same way.
import DataStore
import Foundation
import GRDB
import GRDBSQLite
import GeneratedFixtures
import StoreFixtures

let operation = CommandLine.arguments.dropFirst().first ?? "fetch"
let rounds = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 10
var durations: [Duration] = []

/// Runs `body` and keeps its duration.
@MainActor func timed(_ body: () throws -> Void) rethrows {
    let clock = ContinuousClock()
    let start = clock.now
    try body()
    durations.append(clock.now - start)
}

switch operation {
case "insert":
    for _ in 0..<rounds {
        let context = try PersistentStore(url: StoreFixtures.newStoreURL(), model: StoreFixtures.model).newContext()
        try timed { try StoreFixtures.insertAll(into: context) }
    }
case "insert-floor", "insert-floor-objects":
    for _ in 0..<rounds {
        let db = RawSQLite.open(try StoreFixtures.emptyStoreURL())
        timed { operation == "insert-floor" ? RawSQLite.insertAll(db) : RawSQLite.insertAllObjects(db) }
        sqlite3_close(db)
    }
case "insert-constrained", "upsert":
    // 100,000 listings with a unique code: into an empty store, or one holding every even code.
    for _ in 0..<rounds {
        let url = operation == "upsert" ? try UpsertFixture.halfFilledStoreURL() : StoreFixtures.newStoreURL()
        let store = try PersistentStore(url: url, model: UpsertFixture.model)
        let policy: MergePolicy = operation == "upsert" ? .mergeByPropertyObjectTrump : .error
        try timed { try UpsertFixture.saveAll(into: store.newContext(), policy: policy) }
        try UpsertFixture.verify(store)
    }
case "update", "delete":
    // A tenth of the items changed or deleted and saved, on a fresh copy of the filled store each round.
    let filled = try StoreFixtures.filledStoreURL()
    for _ in 0..<rounds {
        let context = try PersistentStore(url: ChangeFixture.copy(of: filled), model: StoreFixtures.model).newContext()
        let items = try context.fetch(FetchRequest<Item>())
        try timed {
            operation == "update" ? try ChangeFixture.updateChanged(items, in: context) : try ChangeFixture.deleteChanged(items, in: context)
        }
    }
case "update-floor", "delete-floor":
    // The floor of the two above: SQLite's C API on the same rows, on a fresh copy each round.
    let filled = try StoreFixtures.filledStoreURL()
    for _ in 0..<rounds {
        let db = RawSQLite.open(ChangeFixture.copy(of: filled))
        let rows = RawSQLite.fetchAll(db)
        timed { operation == "update-floor" ? RawSQLite.updateChanged(db, rows: rows) : RawSQLite.deleteChanged(db, rows: rows) }
        sqlite3_close(db)
    }
case "predicate":
    let store = try PersistentStore(url: try StoreFixtures.filledStoreURL(), model: StoreFixtures.model)
    let request = try PredicateFixture.request()
    for _ in 0..<rounds {
        try timed {
            let items = try store.newContext().fetch(request)
            precondition(items.count == StoreFixtures.objectCount)
        }
    }
case "computed":
    let store = try PersistentStore(url: try StoreFixtures.filledStoreURL(), model: StoreFixtures.model)
    let request = try ComputedPredicateFixture.request()
    for _ in 0..<rounds {
        try timed {
            let items = try store.newContext().fetch(request)
            precondition(items.count == ComputedPredicateFixture.matchCount)
        }
    }
case "computed-floor":
    let db = RawSQLite.open(try StoreFixtures.filledStoreURL())
    for _ in 0..<rounds { timed { precondition(ComputedPredicateFixture.rawFetch(db).count == ComputedPredicateFixture.matchCount) } }
case "predicate-floor":
    let db = RawSQLite.open(try StoreFixtures.filledStoreURL())
    PredicateFixture.registerRawFunction(db)
    for _ in 0..<rounds { timed { precondition(PredicateFixture.rawFetch(db).count == StoreFixtures.objectCount) } }
case "fetch-floor":
    let db = RawSQLite.open(try StoreFixtures.filledStoreURL())
    for _ in 0..<rounds { timed { precondition(RawSQLite.fetchAll(db).count == StoreFixtures.objectCount) } }
case "fetch-floor-objects":
    let db = RawSQLite.open(try StoreFixtures.filledStoreURL())
    for _ in 0..<rounds { timed { precondition(RawSQLite.fetchAllObjects(db).count == StoreFixtures.objectCount) } }
case "fetch-floor-uniqued":
    let db = RawSQLite.open(try StoreFixtures.filledStoreURL())
    for _ in 0..<rounds {
        timed {
            let map = RawSQLite.IdentityMap<RawSQLite.UniquedItemObject>()
            withExtendedLifetime(map) { precondition(RawSQLite.fetchAllUniquedObjects(db, into: map).count == StoreFixtures.objectCount) }
        }
    }
case "fetch-peer":
    let pool = try DatabasePool(path: try StoreFixtures.filledStoreURL().path)
    for _ in 0..<rounds {
        try timed {
            let records = try pool.read { db in try ItemRecord.fetchAll(db, sql: ItemRecord.selection) }
            precondition(records.count == StoreFixtures.objectCount)
        }
    }
case "predicate-peer":
    let pool = try PredicateFixture.grdbPool(try StoreFixtures.filledStoreURL())
    for _ in 0..<rounds {
        try timed {
            let records = try PredicateFixture.grdbFetch(pool)
            precondition(records.count == StoreFixtures.objectCount)
        }
    }
case "traverse-floor", "traverse-floor-uniqued":
    let db = RawSQLite.open(try GeneratedFixtures.traversalStoreURL())
    for _ in 0..<rounds {
        timed {
            TraversalFixture.expectChecksum(operation == "traverse-floor" ? TraversalFixture.rawTraversal(db) : TraversalFixture.uniquedObjectTraversal(db))
        }
    }
case "traverse":
    // Fetches 10,000 employees and reads each one's department's name (to-one faults).
    let store = try PersistentStore(url: try GeneratedFixtures.traversalStoreURL(), model: Fixtures.model)
    for _ in 0..<rounds { try timed { TraversalFixture.expectChecksum(try GeneratedFixtures.traversal(store.newContext())) } }
case "read":
    // Reads every property of 100,000 fetched objects, ROUNDS times.
    let store = try PersistentStore(url: try StoreFixtures.filledStoreURL(), model: StoreFixtures.model)
    let items = try store.newContext().fetch(FetchRequest<Item>())
    var checksum = 0.0
    for _ in 0..<rounds {
        timed {
            for item in items {
                checksum += item.price + Double(item.quantity) + (item.isActive ? 1 : 0)
                checksum += Double(item.name?.utf8.count ?? 0) + (item.added?.timeIntervalSinceReferenceDate ?? 0)
            }
        }
    }
    precondition(checksum > 0)
case "list-insert-delete":
    // One insert and one delete delivered to a controller over 1,000,000 rows; ROUNDS of 1,000 each.
    let live = try LiveList(url: try ListFixture.storeURL(count: 1_000_000))
    for _ in 0..<rounds {
        timed {
            for _ in 0..<1_000 { live.insertAndDelete(price: Double(1_000_000 / 3) + 0.5) }
        }
    }
    precondition(live.delegate.changes == 2_000 * rounds, "\(live.delegate.changes) changes reported")
case "list-first-change", "list-first-change-10k":
    // The first insert and delete delivered after opening a controller (1,000,000 rows, or
    // 10,000), on a new store connection each round.
    let count = operation.hasSuffix("10k") ? 10_000 : 1_000_000
    let url = try ListFixture.storeURL(count: count)
    for _ in 0..<rounds {
        let live = try LiveList(url: url)
        timed { live.insertAndDelete(price: Double(count / 3) + 0.5) }
        precondition(live.delegate.changes == 2)
    }
case "list-move":
    // One row sent from one end of a 1,000,000-row list to the other and delivered, each round.
    let live = try LiveList(url: try ListFixture.storeURL(count: 1_000_000))
    let object = live.controller.object(at: ResultsIndexPath(item: 500_000, section: 0))
    var low = true
    for _ in 0..<rounds { timed { live.move(object, low: &low) } }
default:
    let store = try PersistentStore(url: try StoreFixtures.filledStoreURL(), model: StoreFixtures.model)
    for _ in 0..<rounds {
        try timed {
            let items = try store.newContext().fetch(FetchRequest<Item>())
            precondition(items.count == StoreFixtures.objectCount)
        }
    }
}
let sorted = durations.sorted()
print("\(operation): fastest \(sorted[0]), median \(sorted[sorted.count / 2]) of \(rounds) rounds")
