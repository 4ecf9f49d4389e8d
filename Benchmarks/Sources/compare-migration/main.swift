// Migration of a 1,000,000-row store against the floor, interleaved round by round: adding an
// optional attribute (DataStore's migration against the bare `ALTER TABLE`) and removing one,
// which rebuilds the table (against the same rebuild written by hand: the table renamed, created
// anew, filled by one `INSERT INTO … SELECT`, the old one dropped). Every contender opens the
// store, migrates it in one transaction and closes it (the close checkpoints the log into the
// file); each works on its own fresh copy of the store, made outside the timing. Peak resident
// memory is measured per contender by resetting the process's high-water mark before each. The
// same removal runs again through a mapping model that maps every attribute, as Xcode writes one:
// every object read, made again and saved a batch at a time into a new store, which then replaces
// the old; its floor is that work through the C API (each row read into Swift values, inserted by
// a prepared statement into a new file, which SQLite's backup then copies over the old).
//
//     swift run -c release compare-migration [ROUNDS]     (default 10)
import DataModel
import DataStore
import Foundation
import GRDBSQLite
import StoreFixtures
import StoreSchema

let rounds = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 10

/// Each contender's rounds: duration, the process's peak resident memory while it ran, and how
/// far that peak rose above the memory resident when it started.
var results: [String: [(duration: Duration, peakMB: Double, growthMB: Double)]] = [:]

/// Runs `body` and records its duration and the peak resident memory while it ran.
@MainActor func measure(_ name: String, _ body: () throws -> Void) rethrows {
    Memory.resetPeak()
    let resident = Memory.megabytes("VmRSS")
    let clock = ContinuousClock()
    let start = clock.now
    try body()
    let duration = clock.now - start
    let peak = Memory.megabytes("VmHWM")
    results[name, default: []].append((duration, peak, peak - resident))
}

@MainActor func median(_ name: String) -> (milliseconds: Double, peakMB: Double, growthMB: Double) {
    let rows = results[name] ?? []
    func middle<T: Comparable>(_ values: [T]) -> T { values.sorted()[values.count / 2] }
    let components = middle(rows.map(\.duration)).components
    return (Double(components.seconds) * 1_000 + Double(components.attoseconds) / 1e15, middle(rows.map(\.peakMB)), middle(rows.map(\.growthMB)))
}

@MainActor func report(_ title: String, floor: String, _ contenders: String...) {
    print(title)
    for name in [floor] + contenders {
        let (time, peak, growth) = median(name)
        let figures = String(format: "%8.1f ms  %5.2f×   peak resident %5.1f MB (+%5.1f MB)", time, time / median(floor).milliseconds, peak, growth)
        print("  \(name.padding(toLength: 30, withPad: " ", startingAt: 0)) \(figures)")
    }
}

/// The process's resident memory, everything included; Linux resets its peak (`VmHWM`) on request.
enum Memory {
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    /// A figure of `/proc/self/status` in megabytes: `VmHWM` (the peak) or `VmRSS` (now).
    static func megabytes(_ field: String) -> Double {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        return Double(line.split(separator: " ").dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
    }
}

func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

let original = try MigrationFixture.storeURL()
let addsAttribute = MigrationFixture.model(upTo: MigrationFixture.version2)
let rebuilds = MigrationFixture.model(upTo: MigrationFixture.version3)
// The rebuilt table's definition, as the destination version declares it.
let schema = StoreSchema(model: MigrationFixture.version3)
let table = schema.table(forEntityNamed: "Item")!
let columns = table.columns.map(\.name).joined(separator: ", ")

/// The mapping model Xcode writes for version 1 → 3: one entity mapping whose property mappings
/// copy every attribute version 3 keeps.
let here = SourceLocation(file: "Items1ToItems3.xcmappingmodel/xcmapping.xml")
let mapping = MappingModel(
    path: here.file, sourceModelPath: "Items 1.xcdatamodel", destinationModelPath: "Items 3.xcdatamodel",
    entityMappings: [
        EntityMapping(
            name: "ItemToItem", sourceEntityName: "Item", destinationEntityName: "Item",
            attributeMappings: MigrationFixture.version3.entities[0].attributes.map { PropertyMapping(name: $0.name, valueExpression: "$source.\($0.name)", location: here) },
            location: here),
    ], location: here)

let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// Runs `body` on a fresh copy of the version 1 store, removed afterwards.
func onCopy(_ body: (URL) throws -> Void) throws {
    let copy = try MigrationFixture.copy(of: original)
    defer { MigrationFixture.remove(copy) }
    try body(copy)
}

for _ in 0..<rounds {
    try onCopy { copy in
        measure("add attribute: C API") {
            let db = RawSQLite.open(copy)
            RawSQLite.execute(db, "BEGIN IMMEDIATE; ALTER TABLE ZITEM ADD COLUMN ZNOTE VARCHAR; COMMIT")
            sqlite3_close(db)
        }
    }
    try onCopy { copy in
        try measure("add attribute: DataStore") {
            let plans = try PersistentStore.migrateStore(at: copy, model: addsAttribute)
            expect(plans.count == 1, "no migration")
        }
        _ = try PersistentStore(url: copy, model: addsAttribute, migration: .disabled)
    }
    try onCopy { copy in
        measure("rebuild: C API") {
            let db = RawSQLite.open(copy)
            RawSQLite.execute(db, """
                BEGIN IMMEDIATE;
                ALTER TABLE ZITEM RENAME TO ZITEM_OLD;
                \(schema.createStatement(for: table));
                INSERT INTO ZITEM (\(columns)) SELECT \(columns) FROM ZITEM_OLD;
                DROP TABLE ZITEM_OLD;
                COMMIT
                """)
            sqlite3_close(db)
        }
        expect(MigrationFixture.rowCount(of: "ZITEM", at: copy) == MigrationFixture.rowCount, "the floor lost rows")
    }
    try onCopy { copy in
        try measure("rebuild: DataStore") {
            let plans = try PersistentStore.migrateStore(at: copy, model: rebuilds)
            expect(plans.count == 1 && plans[0].description.contains("rebuil"), "no rebuild: \(plans)")
        }
        _ = try PersistentStore(url: copy, model: rebuilds, migration: .disabled)
        expect(MigrationFixture.rowCount(of: "ZITEM", at: copy) == MigrationFixture.rowCount, "the migration lost rows")
    }
    try onCopy { copy in
        measure("mapping: C API, row by row") {
            let made = StoreFixtures.newStoreURL()
            defer { MigrationFixture.remove(made) }
            let old = RawSQLite.open(copy), new = RawSQLite.open(made)
            RawSQLite.execute(new, "BEGIN IMMEDIATE; \(schema.createStatement(for: table))")
            var select: OpaquePointer?, insert: OpaquePointer?
            sqlite3_prepare_v2(old, "SELECT Z_PK, Z_OPT, ZISACTIVE, ZNAME, ZPRICE, ZQUANTITY FROM ZITEM ORDER BY Z_PK", -1, &select, nil)
            sqlite3_prepare_v2(new, "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZISACTIVE, ZNAME, ZPRICE, ZQUANTITY) VALUES (?, 1, ?, ?, ?, ?, ?)", -1, &insert, nil)
            while sqlite3_step(select) == SQLITE_ROW {
                let name = sqlite3_column_text(select, 3).map { String(cString: $0) }
                let (key, version, isActive) = (sqlite3_column_int64(select, 0), sqlite3_column_int64(select, 1), sqlite3_column_int64(select, 2))
                let (price, quantity) = (sqlite3_column_double(select, 4), sqlite3_column_int64(select, 5))
                sqlite3_bind_int64(insert, 1, key)
                sqlite3_bind_int64(insert, 2, version)
                sqlite3_bind_int64(insert, 3, isActive)
                if let name { sqlite3_bind_text(insert, 4, name, -1, transient) } else { sqlite3_bind_null(insert, 4) }
                sqlite3_bind_double(insert, 5, price)
                sqlite3_bind_int64(insert, 6, quantity)
                expect(sqlite3_step(insert) == SQLITE_DONE, String(cString: sqlite3_errmsg(new)))
                sqlite3_reset(insert)
            }
            sqlite3_finalize(select)
            sqlite3_finalize(insert)
            RawSQLite.execute(new, "COMMIT")
            let backup = sqlite3_backup_init(old, "main", new, "main")
            expect(sqlite3_backup_step(backup, -1) == SQLITE_DONE, String(cString: sqlite3_errmsg(old)))
            sqlite3_backup_finish(backup)
            sqlite3_close(new)
            sqlite3_close(old)
        }
        expect(MigrationFixture.rowCount(of: "ZITEM", at: copy) == MigrationFixture.rowCount, "the floor lost rows")
    }
    try onCopy { copy in
        try measure("rebuild: DataStore, mapping") {
            let plans = try PersistentStore.migrateStore(at: copy, model: rebuilds, options: MigrationOptions(mappingModels: [mapping]))
            expect(plans.isEmpty, "a lightweight migration ran: \(plans)")
        }
        _ = try PersistentStore(url: copy, model: rebuilds, migration: .disabled)
        expect(MigrationFixture.rowCount(of: "ZITEM", at: copy) == MigrationFixture.rowCount, "the mapping lost rows")
    }
}

MigrationFixture.remove(original)
print("Medians of \(rounds) interleaved rounds on \(MigrationFixture.rowCount) rows; ratios to the floor")
report("Add an optional attribute", floor: "add attribute: C API", "add attribute: DataStore")
report("Remove an attribute (table rebuilt)", floor: "rebuild: C API", "rebuild: DataStore")
report("The same removal by a mapping model", floor: "rebuild: DataStore", "mapping: C API, row by row", "rebuild: DataStore, mapping")
