// Resident bytes per materialised object after fetching 100,000 items, for DataStore objects,
// GRDB records and plain structs from the C API (the growth of the resident set, from
// /proc/self/statm; Linux only). Each contender runs in a fresh process, so none reuses another's
// freed memory: measure-object-memory raw|grdb|datastore
//
//     swift run -c release measure-object-memory
#if canImport(Glibc)
import DataStore
import Foundation
import GRDB
import Glibc
import StoreFixtures

func allocatedBytes() -> Int {
    let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
    let residentPages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return residentPages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

func measure(_ name: String, _ fetch: () throws -> Any) rethrows {
    let before = allocatedBytes()
    let result = try fetch()
    let after = allocatedBytes()
    withExtendedLifetime(result) {
        let perObject = Double(after - before) / Double(StoreFixtures.objectCount)
        print("\(name): \(Int(perObject.rounded())) bytes per object")
    }
}

let contender = CommandLine.arguments.dropFirst().first ?? ""
if contender.isEmpty {
    // Run each contender in its own process on one shared store.
    let url = try StoreFixtures.filledStoreURL()
    for name in ["raw", "grdb", "datastore"] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = [name, url.path]
        try process.run()
        process.waitUntilExit()
    }
} else {
    let url = URL(fileURLWithPath: CommandLine.arguments[2])
    switch contender {
    case "raw":
        let db = RawSQLite.open(url)
        measure("raw SQLite C API structs") { RawSQLite.fetchAll(db) }
    case "grdb":
        let database = try DatabasePool(path: url.path)
        try measure("GRDB records") { try database.read { db in try ItemRecord.fetchAll(db, sql: ItemRecord.selection) } }
    default:
        let context = try PersistentStore(url: url, model: StoreFixtures.model).newContext()
        try measure("DataStore objects (context included)") { try context.fetch(FetchRequest<Item>()) }
    }
}
#else
print("measure-object-memory reads glibc's allocator statistics; run it on Linux.")
#endif
