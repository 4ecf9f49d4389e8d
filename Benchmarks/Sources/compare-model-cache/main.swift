// Reading a model from a store's model cache against parsing the same model's XML, interleaved
// round by round: the largest cache of the stores in `../shared` (beside the repository), inflated
// and decoded by `ModelCache.decode`, and the `.xcdatamodel/contents` of the version that wrote
// the store, parsed by `ModelParser.parse`. Both start from bytes in memory.
//
//     swift run -c release compare-model-cache [ROUNDS]     (default 200)
import DataModelParser
import Foundation
import GRDB
import StoreSchema

let rounds = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 200
let shared = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared")

/// Every store folder with a cache: its cache and the XML of the version that wrote it.
var candidates: [(name: String, cache: [UInt8], xml: [UInt8], xmlPath: String)] = []
for folder in [shared.appendingPathComponent("corpus/stores"), shared.appendingPathComponent("stores-incoming")] {
    for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
        let store = folder.appendingPathComponent(name)
        let dumps = [".md", ".txt", ".sql", ".tsv", ".plist", "-wal", "-shm"]
        guard let file = try? FileManager.default.contentsOfDirectory(atPath: store.path).first(where: { file in
                  !dumps.contains { file.hasSuffix($0) } && !file.contains(".xcdatamodel")
              }),
              let version = try? String(contentsOf: store.appendingPathComponent("model-version.txt"), encoding: .utf8)
        else { continue }
        // A copy, with its log: the stores are WAL files, never opened in place.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("model-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: copy) }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: store.appendingPathComponent(file + suffix).path) {
            try FileManager.default.copyItem(at: store.appendingPathComponent(file + suffix), to: copy.appendingPathComponent(file + suffix))
        }
        let cache = try DatabaseQueue(path: copy.appendingPathComponent(file).path).read { db in
            try db.tableExists("Z_MODELCACHE") ? try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE") : nil
        }
        let xmlPath = store.appendingPathComponent(version.trimmingCharacters(in: .whitespacesAndNewlines)).appendingPathComponent("contents").path
        guard let cache, let xml = FileManager.default.contents(atPath: xmlPath) else { continue }
        candidates.append((name, Array(cache), Array(xml), xmlPath))
    }
}
guard let largest = candidates.max(by: { $0.cache.count < $1.cache.count }) else {
    fatalError("no store with a model cache in \(shared.path)")
}

/// Runs `body` `repetitions` times; the time of one run, in microseconds.
func time(_ repetitions: Int, _ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<repetitions { try body() }
    let elapsed = (clock.now - start).components
    return (Double(elapsed.seconds) * 1e6 + Double(elapsed.attoseconds) / 1e12) / Double(repetitions)
}

var decoding: [Double] = [], parsing: [Double] = []
let path = largest.xmlPath
for _ in 0..<rounds {
    decoding.append(try time(10) { _ = try ModelCache.decode(largest.cache, path: largest.name) })
    parsing.append(try time(10) { _ = try ModelParser.parse(largest.xml, path: path) })
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
let (decode, parse) = (median(decoding), median(parsing))
print("Medians of \(rounds) interleaved rounds on \(largest.name): a cache of \(largest.cache.count) bytes, XML of \(largest.xml.count) bytes")
print(String(format: "  parse the XML (floor)         %8.1f µs  1.00×", parse))
print(String(format: "  decode the model cache        %8.1f µs  %5.2f×", decode, decode / parse))
