import Benchmark
import DataStore
import Foundation
import GRDB
import GRDBSQLite
import StoreFixtures

/// Fetch requests: a predicate fetch of 100,000 objects (`name CONTAINS[cd] %@ AND price < %d`,
/// every row judged and materialised) against the same SQL and text matching through SQLite's C
/// API and through GRDB records; and a batched fetch opened over 1,000,000 rows (keys only) with
/// its last batch read, against the raw keys query and the raw batch query.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident], maxDuration: .seconds(10), maxIterations: 20)
    let count = StoreFixtures.objectCount
    let filled = try! StoreFixtures.filledStoreURL()

    Benchmark("Predicate fetch 100k: raw SQLite C API, same functions") { benchmark in
        let db = RawSQLite.open(filled)
        defer { sqlite3_close(db) }
        PredicateFixture.registerRawFunction(db)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let rows = PredicateFixture.rawFetch(db)
            precondition(rows.count == count)
            blackHole(rows)
        }
    }

    Benchmark("Predicate fetch 100k: GRDB records, same functions") { benchmark in
        let pool = try PredicateFixture.grdbPool(filled)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let records = try PredicateFixture.grdbFetch(pool)
            precondition(records.count == count)
            blackHole(records)
        }
    }

    Benchmark("Predicate fetch 100k: DataStore objects") { benchmark in
        let store = try PersistentStore(url: filled, model: StoreFixtures.model)
        let request = try PredicateFixture.request()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let items = try store.newContext().fetch(request)
            precondition(items.count == count)
            blackHole(items)
        }
    }

    let million = 1_000_000
    let large = try! ListFixture.storeURL(count: million)

    Benchmark("Batched open 1M, last batch read: raw keys query + batch query") { benchmark in
        let db = RawSQLite.open(large)
        defer { sqlite3_close(db) }
        benchmark.startMeasurement()
        let (keys, _) = ListFixture.rawOpen(db, sections: false)
        let batch = ListFixture.rawBatch(db, keys: keys[(million - 20)...])
        precondition(keys.count == million && batch.count == 20)
        blackHole(keys)
        blackHole(batch)
    }

    Benchmark("Batched open 1M, last batch read: DataStore fetchBatched") { benchmark in
        let store = try PersistentStore(url: large, model: StoreFixtures.model)
        let context = store.newContext()
        benchmark.startMeasurement()
        let items = try context.fetchBatched(ListFixture.request(sections: false))
        let last = items[million - 1]
        precondition(items.count == million && last.price == Double(million - 1))
        blackHole(items)
    }
}
