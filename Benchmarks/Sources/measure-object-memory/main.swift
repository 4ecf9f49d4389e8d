// Resident bytes per materialised object after fetching 100,000 objects: DataStore objects of 1, 5
// and 20 attributes (and the five-attribute ones again once each has been read, outside observation
// tracking: such a read makes no registrar), the floor at each width (SQLite's C API into structs,
// and into one plain class instance per row), and for the five-attribute item the peers (GRDB records and `Record`
// subclasses, Fluent models). The figure is the growth of the resident set (/proc/self/statm; Linux only), so
// it counts everything a fetch leaves behind: objects, their strings, result arrays, a context's
// registry, SQLite's page cache. Each contender runs in a fresh process, so none reuses another's
// freed memory: measure-object-memory [CONTENDER STORE]
//
//     swift run -c release measure-object-memory
#if canImport(Glibc)
import DataStore
import FluentFixtures
import Foundation
import GRDB
import GeneratedFixtures
import Glibc
import StoreFixtures

func residentBytes() -> Int {
    let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
    let residentPages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return residentPages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

func report(_ name: String, before: Int, count: Int) {
    let perObject = Double(residentBytes() - before) / Double(StoreFixtures.objectCount)
    precondition(count == StoreFixtures.objectCount, "\(name): \(count) objects fetched")
    print("\(name.padding(toLength: 44, withPad: " ", startingAt: 0)) \(Int(perObject.rounded())) bytes per object")
}

func measure<Object>(_ name: String, _ fetch: () throws -> [Object]) rethrows {
    let before = residentBytes()
    let result = try fetch()
    withExtendedLifetime(result) { report(name, before: before, count: result.count) }
}

func measure<Object>(_ name: String, _ fetch: () async throws -> [Object]) async rethrows {
    let before = residentBytes()
    let result = try await fetch()
    withExtendedLifetime(result) { report(name, before: before, count: result.count) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty {
    // Each contender in its own process, on one store per entity.
    let items = try StoreFixtures.filledStoreURL()
    let narrow = try GeneratedFixtures.storeURL(of: Narrow.self)
    let wide = try GeneratedFixtures.storeURL(of: Wide.self)
    let runs = [("raw", items), ("raw-objects", items), ("grdb", items), ("grdb-record", items), ("fluent", items),
                ("datastore", items), ("datastore-read", items), ("raw-1", narrow), ("raw-objects-1", narrow), ("datastore-1", narrow),
                ("raw-20", wide), ("raw-objects-20", wide), ("datastore-20", wide)]
    for (name, url) in runs {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = [name, url.path]
        try process.run()
        process.waitUntilExit()
    }
} else {
    let url = URL(fileURLWithPath: arguments[1])
    switch arguments[0] {
    case "raw":
        let db = RawSQLite.open(url)
        measure("5 attributes: C API structs (floor)") { RawSQLite.fetchAll(db) }
    case "raw-objects":
        let db = RawSQLite.open(url)
        measure("5 attributes: C API class instances") { RawSQLite.fetchAllObjects(db) }
    case "grdb":
        let database = try DatabasePool(path: url.path)
        try measure("5 attributes: GRDB records (structs)") { try database.read { db in try ItemRecord.fetchAll(db, sql: ItemRecord.selection) } }
    case "grdb-record":
        let database = try DatabasePool(path: url.path)
        try measure("5 attributes: GRDB Record subclasses") {
            try database.read { db in try ItemRecordSubclass.fetchAll(db, sql: ItemRecord.selection) }
        }
    case "fluent":
        let fluent = try await FluentPeer(url: url)
        try await measure("5 attributes: Fluent models") { try await fluent.fetchAll() }
    case "datastore":
        let context = try PersistentStore(url: url, model: StoreFixtures.model).newContext()
        try measure("5 attributes: DataStore objects") { try context.fetch(FetchRequest<Item>()) }
    case "datastore-read":
        let context = try PersistentStore(url: url, model: StoreFixtures.model).newContext()
        try measure("5 attributes: DataStore objects, each read") {
            let items = try context.fetch(FetchRequest<Item>())
            let names = items.reduce(0) { count, item in count + (item.name?.utf8.count ?? 0) }
            precondition(names > 0)
            return items
        }
    case "raw-1":
        let db = RawSQLite.open(url)
        measure("1 attribute: C API structs (floor)") { RawSQLite.fetchAllNarrow(db) }
    case "raw-objects-1":
        let db = RawSQLite.open(url)
        measure("1 attribute: C API class instances") { RawSQLite.fetchAllNarrowObjects(db) }
    case "raw-20":
        let db = RawSQLite.open(url)
        measure("20 attributes: C API structs (floor)") { RawSQLite.fetchAllWide(db) }
    case "raw-objects-20":
        let db = RawSQLite.open(url)
        measure("20 attributes: C API class instances") { RawSQLite.fetchAllWideObjects(db) }
    case "datastore-1":
        let context = try PersistentStore(url: url, model: Fixtures.model).newContext()
        try measure("1 attribute: DataStore objects") { try context.fetch(Narrow.fetchRequest()) }
    default:
        let context = try PersistentStore(url: url, model: Fixtures.model).newContext()
        try measure("20 attributes: DataStore objects") { try context.fetch(Wide.fetchRequest()) }
    }
}
#else
print("measure-object-memory reads the resident set from /proc; run it on Linux.")
#endif
