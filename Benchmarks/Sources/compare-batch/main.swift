// Batch requests and persistent history against the floor, interleaved round by round:
//
// - batch insert of 100,000 rows (a typed closure filling one object) against the C API's prepared
//   `INSERT` in one transaction;
// - batch delete of 100,000 of 200,000 rows by predicate against the plain `DELETE … WHERE`;
// - a save of 1,000 changed objects with persistent history on against the same save without;
// - one change by another connection delivered to a results controller over 1,000,000 rows, with
//   history (the exact change) and without (every loaded object read again).
//
// Stores are made, copied and opened outside the timing; every contender checks what it did.
//
//     swift run -c release compare-batch [ROUNDS]     (default 10)
import DataStore
import Foundation
import GRDBSQLite
import StoreFixtures
import Synchronization

let rounds = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 10

let timings = RoundTimings()

@MainActor func report(_ title: String, floor: String, _ contenders: String...) {
    print(title)
    for name in [floor] + contenders {
        let figures = String(format: "%9.2f ms  %5.2f×", timings.median(name), timings.median(name) / timings.median(floor))
        print("  \(name.padding(toLength: 40, withPad: " ", startingAt: 0)) \(figures)")
    }
}

func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

/// A copy of `url` (a store closed and checkpointed), made outside the timing.
func copy(of url: URL) throws -> URL {
    let copy = StoreFixtures.newStoreURL()
    try FileManager.default.copyItem(at: url, to: copy)
    return copy
}

func remove(_ url: URL) {
    try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
}

let count = StoreFixtures.objectCount

// 200,000 rows, every other one active: the batch deletes remove the active half.
let twiceFilled = try StoreFixtures.emptyStoreURL()
do {
    let db = RawSQLite.open(twiceFilled)
    RawSQLite.insertAll(db, count: 2 * count)
    sqlite3_close(db)
}
let active = try ObjectPredicate(format: "isActive == YES")

// The list: 1,000,000 items with history kept, and the same without.
let listCount = 1_000_000
let listWithHistory = try ListFixture.storeURL(count: listCount)
_ = try PersistentStore(url: listWithHistory, model: StoreFixtures.model, history: .enabled)
let listWithoutHistory = try ListFixture.storeURL(count: listCount)

/// The change sets a store publishes, kept for the context to merge on its own thread.
final class Inbox: Sendable {
    private let changes = Mutex<[ChangeSet]>([])

    func append(_ changeSet: ChangeSet) { changes.withLock { $0.append(changeSet) } }
    func take() -> [ChangeSet] { changes.withLock { changes in defer { changes = [] }; return changes } }
}

/// A controller over the list at `url`, merging what its store publishes, and another connection.
final class ExternalChange {
    let store: PersistentStore
    let list: LiveList
    let other: ObjectContext
    let inbox = Inbox()
    var item: Item
    /// The objects of the rows on screen, which the screen holds.
    var shown: [Item] = []

    init(url: URL) throws {
        store = try PersistentStore(url: url, model: StoreFixtures.model)
        let context = store.newContext()
        list = try LiveList(context: context)
        store.addObserver { [inbox] changes in inbox.append(changes) }
        // The first 200 rows are loaded and held, as by a screen that scrolled through them.
        let controller = list.controller
        shown = (0..<200).map { controller.object(at: ResultsIndexPath(item: $0, section: 0)) }
        other = try PersistentStore(url: url, model: StoreFixtures.model).newContext()
        var request = ListFixture.request(sections: false)
        request.fetchLimit = 1
        item = try other.fetch(request)[0]
    }

    /// Moves the cheapest item to the end of the list from the other connection (not timed).
    func changeElsewhere(_ round: Int) throws {
        item.price = 1e9 + Double(round)
        try other.save()
    }
}

let filled = try StoreFixtures.filledStoreURL()
// The same store with the history tables, for the floor of writing a save's history rows.
let filledWithHistory = try copy(of: filled)
_ = try PersistentStore(url: filledWithHistory, model: StoreFixtures.model, history: .enabled)

/// The history rows of a save of 1,000 updates written through the C API: one transaction row
/// and one change row per object, in one transaction.
func writeHistoryRows(_ db: OpaquePointer) {
    RawSQLite.execute(db, "BEGIN IMMEDIATE")
    RawSQLite.execute(db, "INSERT INTO ATRANSACTION (Z_PK, Z_ENT, ZTIMESTAMP) VALUES (1, 16002, 0)")
    var statement: OpaquePointer?
    sqlite3_prepare_v2(db, "INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS) VALUES (?, 16001, 1, 1, ?, 1, ?)", -1, &statement, nil)
    let columns: [UInt8] = [0x08]
    for index in 0..<1_000 {
        sqlite3_bind_int64(statement, 1, Int64(index + 1))
        sqlite3_bind_int64(statement, 2, Int64(index + 1))
        _ = columns.withUnsafeBytes { sqlite3_bind_blob(statement, 3, $0.baseAddress, 1, nil) }
        guard sqlite3_step(statement) == SQLITE_DONE else { fatalError(String(cString: sqlite3_errmsg(db))) }
        sqlite3_reset(statement)
    }
    sqlite3_finalize(statement)
    RawSQLite.execute(db, "COMMIT")
}
let withHistory = try ExternalChange(url: listWithHistory)
let withoutHistory = try ExternalChange(url: listWithoutHistory)

for round in 0..<rounds {
    let raw = RawSQLite.open(try StoreFixtures.emptyStoreURL())
    timings.measure("insert: C API") { RawSQLite.insertAll(raw) }
    sqlite3_close(raw)
    let insertStore = try PersistentStore(url: try StoreFixtures.emptyStoreURL(), model: StoreFixtures.model)
    let inserter = insertStore.newContext()
    try timings.measure("insert: DataStore batch request") {
        let result = try inserter.execute(BatchInsertRequest<Item>(count: count) { item, index in
            item.isActive = index % 2 == 0
            item.quantity = Int64(index)
            item.added = StoreFixtures.added(index)
            item.price = StoreFixtures.price(index)
            item.name = StoreFixtures.name(index)
        })
        expect(result.count == count, "\(result.count) inserted")
    }

    let plainCopy = try copy(of: twiceFilled)
    let plain = RawSQLite.open(plainCopy)
    timings.measure("delete: plain DELETE") {
        RawSQLite.execute(plain, "DELETE FROM ZITEM WHERE ZISACTIVE = 1")
        expect(sqlite3_changes(plain) == Int32(count), "\(sqlite3_changes(plain)) deleted")
    }
    sqlite3_close(plain)
    remove(plainCopy)
    let batchCopy = try copy(of: twiceFilled)
    let deleter = try PersistentStore(url: batchCopy, model: StoreFixtures.model).newContext()
    try timings.measure("delete: DataStore batch request") {
        let result = try deleter.execute(BatchDeleteRequest(FetchRequest<Item>(predicate: active)))
        expect(result.count == count, "\(result.count) deleted")
    }
    remove(batchCopy)

    for (name, history) in [("save 1,000 changes: without history", HistoryTracking.automatic), ("save 1,000 changes: with history", .enabled)] {
        let url = try copy(of: filled)
        let context = try PersistentStore(url: url, model: StoreFixtures.model, history: history).newContext()
        var request = FetchRequest<Item>()
        request.fetchLimit = 1_000
        let items = try context.fetch(request)
        for item in items { item.price += 1 }
        try timings.measure(name) {
            try context.save()
        }
        expect(!context.hasChanges, "saved")
        remove(url)
    }

    let historyCopy = try copy(of: filledWithHistory)
    let historyRows = RawSQLite.open(historyCopy)
    timings.measure("history rows alone: C API") { writeHistoryRows(historyRows) }
    sqlite3_close(historyRows)
    remove(historyCopy)

    for (name, change) in [("external change: re-read (no history)", withoutHistory), ("external change: exact (history)", withHistory)] {
        try change.changeElsewhere(round)
        let before = change.list.delegate.changes
        try timings.measure(name) {
            expect(try change.store.checkForExternalChanges(), "a change arrived")
            for changes in change.inbox.take() { change.list.context.mergeChanges(from: changes) }
        }
        expect(change.list.delegate.changes > before, "the list reported the change")
    }
}

print("Medians of \(rounds) interleaved rounds; ratios to the floor")
report("Batch insert 100k", floor: "insert: C API", "insert: DataStore batch request")
report("Batch delete 100k of 200k by predicate", floor: "delete: plain DELETE", "delete: DataStore batch request")
report("Save of 1,000 changed objects", floor: "save 1,000 changes: without history", "save 1,000 changes: with history", "history rows alone: C API")
report("One external change, 1,000,000-row list", floor: "external change: re-read (no history)", "external change: exact (history)")
