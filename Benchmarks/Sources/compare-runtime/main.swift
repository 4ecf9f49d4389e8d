// The runtime benchmarks' comparisons with every contender interleaved round by round: each round
// runs the floor, the peers and DataStore once, one after another, so that all of them meet the
// same machine conditions, and each round starts with the next contender (`runRotated`). On a
// shared machine the benchmark package's runs, one benchmark after another, can see one contender
// at a quieter moment than the next (a spread of ±30% in one run has been seen); here a ratio is
// the ratio of the medians of interleaved rounds.
//
// Every contender's result is checked (counts, values read back, the store after a save), so that
// none can win by doing less.
//
//     swift run -c release compare-runtime [ROUNDS]     (default 30; writes: a third as many)
import DataStore
import FluentFixtures
import Foundation
import GRDB
import GRDBSQLite
import GeneratedFixtures
import StoreFixtures

let rounds = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 30
let timings = RoundTimings()

/// The contenders, floor first, in the order of the report.
enum Contender: String, CaseIterable {
    case structs = "C API structs"
    case classInstances = "C API class instances"
    case uniquedClassInstances = "C API class instances, uniqued"
    case grdbRecords = "GRDB records (structs)"
    case recordSubclasses = "GRDB Record subclasses"
    case uniquedRecordSubclasses = "GRDB Record subclasses, uniqued"
    case fluent = "Fluent models"
    case dataStore = "DataStore objects"

    /// The peers of like kind: an object per row.
    static let objectPeers: [Contender] = [.recordSubclasses, .uniquedRecordSubclasses, .fluent]
}

enum Workload: String, CaseIterable {
    case fetch = "Fetch 100k"
    case predicate = "Predicate fetch 100k"
    case insert = "Insert 100k, one save"
    case update = "Update 10%, save"
    case delete = "Delete 10%, save"
    case traversal = "To-one traversal 10k"
}

func key(_ workload: Workload, _ contender: Contender) -> String { "\(workload.rawValue): \(contender.rawValue)" }

@MainActor func measure(_ workload: Workload, _ contender: Contender, _ body: () throws -> Void) rethrows {
    try timings.measure(key(workload, contender), body)
}

@MainActor func measure(_ workload: Workload, _ contender: Contender, _ body: () async throws -> Void) async rethrows {
    try await timings.measure(key(workload, contender), body)
}

/// One contender's part of a round: its setup, its timed run and its checks.
typealias Step = @MainActor () async throws -> Void

/// Runs `steps`, starting with the one `round` picks and wrapping around. Over the rounds each
/// contender runs in every position, so none always meets the heap and caches that the same
/// contender left: run right after the floor rather than after Fluent, DataStore's traversal
/// took 4.3 ms instead of 4.7.
@MainActor func runRotated(round: Int, _ steps: [Step]) async throws {
    for offset in steps.indices { try await steps[(round + offset) % steps.count]() }
}

/// `pool.read`, synchronously, from the rounds' asynchronous steps (its asynchronous form needs a
/// `Sendable` result, which records are not).
func readNow<T>(_ pool: DatabasePool, _ body: (Database) throws -> T) throws -> T {
    try pool.read(body)
}

/// Checks that a fetch read every object.
func expectAll(_ count: Int) {
    precondition(count == StoreFixtures.objectCount, "\(count) objects fetched")
}

/// Checks the store at `url` after `workload`: the changed rows updated, or gone.
func verify(_ workload: Workload, _ url: URL) {
    workload == .update ? ChangeFixture.verifyUpdated(url) : ChangeFixture.verifyDeleted(url)
}

/// GRDB's struct records, updated as GRDB documents it: the changed columns only.
func updateChanged(_ records: [ItemRecord], in pool: DatabasePool) throws {
    try pool.write { db in
        for var record in records where ChangeFixture.isChanged(record.primaryKey) {
            try record.updateChanges(db) {
                $0.price = ChangeFixture.updatedPrice($0.primaryKey)
                $0.version += 1
            }
        }
    }
}

/// GRDB `Record` subclasses, which track their own changes.
func updateChanged(_ records: [ItemRecordSubclass], in pool: DatabasePool) throws {
    try pool.write { db in
        for record in records where ChangeFixture.isChanged(record.primaryKey) {
            record.price = ChangeFixture.updatedPrice(record.primaryKey)
            record.version += 1
            try record.updateChanges(db)
        }
    }
}

func deleteChanged(_ records: [ItemRecord], in pool: DatabasePool) throws {
    try pool.write { db in
        for record in records where ChangeFixture.isChanged(record.primaryKey) { try record.delete(db) }
    }
}

func deleteChanged(_ records: [ItemRecordSubclass], in pool: DatabasePool, identities: RecordIdentities<ItemRecordSubclass>? = nil) throws {
    try pool.write { db in
        for record in records where ChangeFixture.isChanged(record.primaryKey) {
            try record.delete(db)
            identities?.forget(key: record.primaryKey)
        }
    }
}

// Read-only workloads share one store per schema.
let filled = try StoreFixtures.filledStoreURL()
let store = try PersistentStore(url: filled, model: StoreFixtures.model)
let db = RawSQLite.open(filled)
PredicateFixture.registerRawFunction(db)
let pool = try PredicateFixture.grdbPool(filled)
let predicateRequest = try PredicateFixture.request()
let fluent = try await FluentPeer(url: filled)

let traversalURL = try GeneratedFixtures.traversalStoreURL()
let traversalStore = try PersistentStore(url: traversalURL, model: Fixtures.model)
let traversalDB = RawSQLite.open(traversalURL)
let traversalPool = try DatabasePool(path: traversalURL.path)
let traversalFluent = try await FluentPeer(url: traversalURL)

for round in 0..<rounds {
    // Each closure lets its objects go before it returns, so releasing them is timed too.
    try await runRotated(round: round, [
        { measure(.fetch, .structs) { expectAll(RawSQLite.fetchAll(db).count) } },
        { measure(.fetch, .classInstances) { expectAll(RawSQLite.fetchAllObjects(db).count) } },
        {
            measure(.fetch, .uniquedClassInstances) {
                let map = RawSQLite.IdentityMap<RawSQLite.UniquedItemObject>()
                withExtendedLifetime(map) { expectAll(RawSQLite.fetchAllUniquedObjects(db, into: map).count) }
            }
        },
        { try measure(.fetch, .grdbRecords) { expectAll(try pool.read { db in try ItemRecord.fetchAll(db, sql: ItemRecord.selection) }.count) } },
        {
            try measure(.fetch, .recordSubclasses) {
                expectAll(try pool.read { db in try ItemRecordSubclass.fetchAll(db, sql: ItemRecord.selection) }.count)
            }
        },
        {
            try measure(.fetch, .uniquedRecordSubclasses) {
                let identities = RecordIdentities<ItemRecordSubclass>()
                expectAll(try pool.read { db in try identities.fetchAll(db, sql: ItemRecord.selection) }.count)
            }
        },
        { try await measure(.fetch, .fluent) { expectAll(try await fluent.fetchAll().count) } },
        { try measure(.fetch, .dataStore) { expectAll(try store.newContext().fetch(FetchRequest<Item>()).count) } },
    ])

    let predicateArguments: StatementArguments = [PredicateFixture.foldedPattern, PredicateFixture.maximumPrice]
    try await runRotated(round: round, [
        { measure(.predicate, .structs) { expectAll(PredicateFixture.rawFetch(db).count) } },
        { try measure(.predicate, .grdbRecords) { expectAll(try PredicateFixture.grdbFetch(pool).count) } },
        {
            try measure(.predicate, .recordSubclasses) {
                expectAll(try pool.read { db in try ItemRecordSubclass.fetchAll(db, sql: PredicateFixture.selection, arguments: predicateArguments) }.count)
            }
        },
        {
            try measure(.predicate, .uniquedRecordSubclasses) {
                let identities = RecordIdentities<ItemRecordSubclass>()
                expectAll(try pool.read { db in try identities.fetchAll(db, sql: PredicateFixture.selection, arguments: predicateArguments) }.count)
            }
        },
        { try await measure(.predicate, .fluent) { expectAll(try await fluent.predicateFetch().count) } },
        { try measure(.predicate, .dataStore) { expectAll(try store.newContext().fetch(predicateRequest).count) } },
    ])

    try await runRotated(round: round, [
        { measure(.traversal, .structs) { TraversalFixture.expectChecksum(TraversalFixture.rawTraversal(traversalDB)) } },
        { measure(.traversal, .uniquedClassInstances) { TraversalFixture.expectChecksum(TraversalFixture.uniquedObjectTraversal(traversalDB)) } },
        { try measure(.traversal, .grdbRecords) { TraversalFixture.expectChecksum(try TraversalFixture.grdbTraversal(traversalPool)) } },
        { try measure(.traversal, .recordSubclasses) { TraversalFixture.expectChecksum(try TraversalFixture.recordTraversal(traversalPool)) } },
        {
            try measure(.traversal, .uniquedRecordSubclasses) {
                TraversalFixture.expectChecksum(try TraversalFixture.recordTraversal(traversalPool, identities: RecordIdentities()))
            }
        },
        { try await measure(.traversal, .fluent) { TraversalFixture.expectChecksum(try await traversalFluent.traversal()) } },
        { try measure(.traversal, .dataStore) { TraversalFixture.expectChecksum(try GeneratedFixtures.traversal(traversalStore.newContext())) } },
    ])
}
try await fluent.shutdown()
try await traversalFluent.shutdown()

// Writes need a store each: fewer rounds, each contender on new files made outside the timing,
// its objects fetched outside the timing too (the update and delete start from objects in memory).
let writeRounds = max(3, rounds / 3)
for round in 0..<writeRounds {
    try await runRotated(round: round, [
        {
            let raw = RawSQLite.open(try StoreFixtures.emptyStoreURL())
            measure(.insert, .structs) { RawSQLite.insertAll(raw) }
            sqlite3_close(raw)
        },
        {
            let objectsURL = try StoreFixtures.emptyStoreURL()
            let objects = RawSQLite.open(objectsURL)
            measure(.insert, .uniquedClassInstances) { RawSQLite.insertAllObjects(objects) }
            sqlite3_close(objects)
            let objectsCount = try readNow(DatabasePool(path: objectsURL.path)) { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZITEM") }
            precondition(objectsCount == StoreFixtures.objectCount, "the uniqued instances inserted \(objectsCount ?? 0) items")
        },
        {
            let records = try DatabasePool(path: try StoreFixtures.emptyStoreURL().path)
            try measure(.insert, .grdbRecords) { try ItemRecord.insertAll(records) }
        },
        {
            let subclasses = try DatabasePool(path: try StoreFixtures.emptyStoreURL().path)
            try measure(.insert, .recordSubclasses) { try ItemRecordSubclass.insertAll(subclasses) }
        },
        {
            let uniqued = try DatabasePool(path: try StoreFixtures.emptyStoreURL().path)
            try measure(.insert, .uniquedRecordSubclasses) { try ItemRecordSubclass.insertAll(uniqued, identities: RecordIdentities()) }
        },
        {
            let fluentURL = try StoreFixtures.emptyStoreURL()
            let fluent = try await FluentPeer(url: fluentURL)
            try await measure(.insert, .fluent) { try await fluent.insertAll() }
            try await fluent.shutdown()
            let fluentCount = try readNow(DatabasePool(path: fluentURL.path)) { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZITEM") }
            precondition(fluentCount == StoreFixtures.objectCount, "Fluent inserted \(fluentCount ?? 0) items")
        },
        {
            let context = try PersistentStore(url: try StoreFixtures.emptyStoreURL(), model: StoreFixtures.model).newContext()
            try measure(.insert, .dataStore) { try StoreFixtures.insertAll(into: context) }
        },
    ])

    for workload in [Workload.update, .delete] {
        let isUpdate = workload == .update
        try await runRotated(round: round, [
            {
                let url = ChangeFixture.copy(of: filled)
                let raw = RawSQLite.open(url)
                let rows = RawSQLite.fetchAll(raw)
                measure(workload, .structs) { isUpdate ? RawSQLite.updateChanged(raw, rows: rows) : RawSQLite.deleteChanged(raw, rows: rows) }
                sqlite3_close(raw)
                verify(workload, url)
            },
            {
                let url = ChangeFixture.copy(of: filled)
                let recordsPool = try DatabasePool(path: url.path)
                let records = try readNow(recordsPool) { db in try ItemRecord.fetchAll(db, sql: ItemRecord.selection) }
                try measure(workload, .grdbRecords) { isUpdate ? try updateChanged(records, in: recordsPool) : try deleteChanged(records, in: recordsPool) }
                verify(workload, url)
            },
            {
                let url = ChangeFixture.copy(of: filled)
                let subclassesPool = try DatabasePool(path: url.path)
                let subclasses = try readNow(subclassesPool) { db in try ItemRecordSubclass.fetchAll(db, sql: ItemRecord.selection) }
                try measure(workload, .recordSubclasses) {
                    isUpdate ? try updateChanged(subclasses, in: subclassesPool) : try deleteChanged(subclasses, in: subclassesPool)
                }
                verify(workload, url)
            },
            {
                let url = ChangeFixture.copy(of: filled)
                let uniquedPool = try DatabasePool(path: url.path)
                let identities = RecordIdentities<ItemRecordSubclass>()
                let uniqued = try readNow(uniquedPool) { db in try identities.fetchAll(db, sql: ItemRecord.selection) }
                try measure(workload, .uniquedRecordSubclasses) {
                    isUpdate ? try updateChanged(uniqued, in: uniquedPool) : try deleteChanged(uniqued, in: uniquedPool, identities: identities)
                }
                verify(workload, url)
            },
            {
                let url = ChangeFixture.copy(of: filled)
                let fluent = try await FluentPeer(url: url)
                let models = try await fluent.fetchAll()
                try await measure(workload, .fluent) { isUpdate ? try await fluent.updateChanged(models) : try await fluent.deleteChanged(models) }
                try await fluent.shutdown()
                verify(workload, url)
            },
            {
                let url = ChangeFixture.copy(of: filled)
                let context = try PersistentStore(url: url, model: StoreFixtures.model).newContext()
                let items = try context.fetch(FetchRequest<Item>())
                try measure(workload, .dataStore) {
                    isUpdate ? try ChangeFixture.updateChanged(items, in: context) : try ChangeFixture.deleteChanged(items, in: context)
                }
                verify(workload, url)
            },
        ])
    }
}

print("Medians of \(rounds) interleaved rounds (writes: \(writeRounds)); ratios to the floor, the C API with structs")
for workload in Workload.allCases {
    print(workload.rawValue)
    let floor = timings.median(key(workload, .structs))
    for contender in Contender.allCases where timings.contains(key(workload, contender)) {
        let median = timings.median(key(workload, contender))
        print("  \(contender.rawValue.padding(toLength: 34, withPad: " ", startingAt: 0)) \(String(format: "%8.1f ms  %6.2f×", median, median / floor))")
    }
}

print("\nThe same, as the README's table (ratios to the floor):\n")
print("| Contender | " + Workload.allCases.map(\.rawValue).joined(separator: " | ") + " |")
print("|---|" + String(repeating: "---:|", count: Workload.allCases.count))
for contender in Contender.allCases {
    let cells = Workload.allCases.map { workload in
        guard timings.contains(key(workload, contender)) else { return "—" }
        return String(format: "%.2f×", timings.median(key(workload, contender)) / timings.median(key(workload, .structs)))
    }
    print("| \(contender.rawValue) | " + cells.joined(separator: " | ") + " |")
}

print("\nDataStore's time over each peer's (below 1: DataStore is faster):")
for workload in Workload.allCases {
    let ours = timings.median(key(workload, .dataStore))
    let ratios = ([Contender.grdbRecords] + Contender.objectPeers).map { peer in
        String(format: "%@ %.2f×", peer.rawValue, ours / timings.median(key(workload, peer)))
    }
    print("  \(workload.rawValue): " + ratios.joined(separator: ", "))
}
