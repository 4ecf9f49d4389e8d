import Benchmark
import DataStore
import Foundation
import GRDB
import GRDBSQLite
import StoreFixtures

/// The results controller over 1,000,000 rows: opening (batch size 20, with and without sections)
/// against the floor — the raw keys-only query and the raw `GROUP BY` — and one change delivered
/// to the delegate at 10,000 and 1,000,000 rows (after warm-up changes, and the first change
/// after opening), against GRDB re-reading the keys (what
/// `ValueObservation` does on each commit) and diffing them with Swift's `difference(from:)`.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .peakMemoryResident], maxDuration: .seconds(10), maxIterations: 20)
    let million = 1_000_000
    let large = try! ListFixture.storeURL(count: million)
    let small = try! ListFixture.storeURL(count: 10_000)

    for sections in [false, true] {
        let suffix = sections ? " with sections" : ""
        Benchmark("Open 1M\(suffix): raw keys query\(sections ? " + GROUP BY" : "")") { benchmark in
            let db = RawSQLite.open(large)
            defer { sqlite3_close(db) }
            benchmark.startMeasurement()
            let (keys, lengths) = ListFixture.rawOpen(db, sections: sections)
            precondition(keys.count == million && lengths.reduce(0, +) == (sections ? million : 0))
            blackHole(keys)
        }

        Benchmark("Open 1M\(suffix): FetchedResultsController") { benchmark in
            let store = try PersistentStore(url: large, model: StoreFixtures.model)
            let controller = FetchedResultsController(
                fetchRequest: ListFixture.request(sections: sections), context: store.newContext(),
                sectionNameKeyPath: sections ? Item.quantity.name : nil)
            benchmark.startMeasurement()
            try controller.performFetch()
            precondition(controller.sections?.count == (sections ? ListFixture.sectionCount : 1))
            blackHole(controller)
        }
    }

    for (label, url, count) in [("10k", small, 10_000), ("1M", large, million)] {
        Benchmark("One move delivered, \(label) rows: FetchedResultsController", configuration: .init(maxIterations: 200)) { benchmark in
            let live = try LiveList(url: url)
            let object = live.controller.object(at: ResultsIndexPath(item: count / 2, section: 0))
            var low = true
            // Warm-ups leave the row last; the measured move takes it first, the move whose old
            // place a scan of the keys would find last.
            for _ in 0..<4 { live.move(object, low: &low) }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { live.move(object, low: &low) }
            benchmark.stopMeasurement()
            precondition(live.delegate.changes > 0)
        }

        Benchmark("One insert + one delete delivered, \(label) rows: FetchedResultsController", configuration: .init(maxIterations: 200)) { benchmark in
            let live = try LiveList(url: url)
            for _ in 0..<3 { live.insertAndDelete(price: Double(count / 3) + 0.5) }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { live.insertAndDelete(price: Double(count / 3) + 0.5) }
            benchmark.stopMeasurement()
            precondition(live.delegate.changes > 0)
        }

        // The first change after opening reads the rows its binary search visits from the store.
        Benchmark("First insert + delete after opening, \(label) rows: FetchedResultsController", configuration: .init(maxIterations: 200)) { benchmark in
            let live = try LiveList(url: url)
            benchmark.startMeasurement()
            live.insertAndDelete(price: Double(count / 3) + 0.5)
            benchmark.stopMeasurement()
            precondition(live.delegate.changes == 2)
        }

        Benchmark("One move delivered, \(label) rows: GRDB re-read keys + difference(from:)", configuration: .init(maxIterations: 200)) { benchmark in
            let database = try DatabaseQueue(path: url.path)
            let sql = "SELECT Z_PK FROM ZITEM ORDER BY ZPRICE, Z_PK"
            let keys = try database.read { db in try Int64.fetchAll(db, sql: sql) }
            // Earlier runs left the row at one end: send it to the other.
            let low = keys.first != Int64(count / 2)
            try database.write { db in try db.execute(sql: "UPDATE ZITEM SET ZPRICE = ? WHERE Z_PK = ?", arguments: [low ? -1.0 : 1e12, count / 2]) }
            benchmark.startMeasurement()
            let new = try database.read { db in try Int64.fetchAll(db, sql: sql) }
            let difference = new.difference(from: keys).inferringMoves()
            benchmark.stopMeasurement()
            precondition(difference.count == 2)
        }
    }
}
