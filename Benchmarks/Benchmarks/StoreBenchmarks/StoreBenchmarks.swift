import Benchmark
import DataStore
import Foundation
import GRDB
import GRDBSQLite
import StoreFixtures

/// Insert 100,000 objects of five attributes in one save, and fetch them all as materialised
/// objects: DataStore against the floor (SQLite's C API) and the peer (GRDB records), same run,
/// same schema, same values.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident],
        maxDuration: .seconds(10), maxIterations: 10)
    let count = StoreFixtures.objectCount

    Benchmark("Insert 100k: raw SQLite C API") { benchmark in
        for _ in benchmark.scaledIterations {
            let db = RawSQLite.open(try StoreFixtures.emptyStoreURL())
            benchmark.startMeasurement()
            RawSQLite.insertAll(db)
            benchmark.stopMeasurement()
            sqlite3_close(db)
        }
    }

    Benchmark("Insert 100k: GRDB records") { benchmark in
        for _ in benchmark.scaledIterations {
            let database = try DatabasePool(path: try StoreFixtures.emptyStoreURL().path)
            benchmark.startMeasurement()
            try ItemRecord.insertAll(database)
            benchmark.stopMeasurement()
        }
    }

    Benchmark("Insert 100k: DataStore objects") { benchmark in
        for _ in benchmark.scaledIterations {
            let context = try PersistentStore(url: try StoreFixtures.emptyStoreURL(), model: StoreFixtures.model).newContext()
            benchmark.startMeasurement()
            try StoreFixtures.insertAll(into: context)
            benchmark.stopMeasurement()
        }
    }

    let filled = try! StoreFixtures.filledStoreURL()

    Benchmark("Fetch 100k: raw SQLite C API") { benchmark in
        let db = RawSQLite.open(filled)
        defer { sqlite3_close(db) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let rows = RawSQLite.fetchAll(db)
            precondition(rows.count == count)
            blackHole(rows)
        }
    }

    // Not a contender: what one plain class instance per row adds to the floor by itself.
    Benchmark("Fetch 100k: raw SQLite C API into class instances") { benchmark in
        let db = RawSQLite.open(filled)
        defer { sqlite3_close(db) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let objects = RawSQLite.fetchAllObjects(db)
            precondition(objects.count == count)
            blackHole(objects)
        }
    }

    Benchmark("Fetch 100k: GRDB records") { benchmark in
        let database = try DatabasePool(path: filled.path)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let records = try database.read { db in try ItemRecord.fetchAll(db, sql: ItemRecord.selection) }
            precondition(records.count == count)
            blackHole(records)
        }
    }

    Benchmark("Fetch 100k: DataStore objects") { benchmark in
        let store = try PersistentStore(url: filled, model: StoreFixtures.model)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            // A new context each time: every object is materialised from its row, none reused.
            let items = try store.newContext().fetch(FetchRequest<Item>())
            precondition(items.count == count)
            blackHole(items)
        }
    }
}
