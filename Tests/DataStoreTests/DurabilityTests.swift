import DataStore
import Foundation
import GRDB
import GeneratedFailedBanks
import TestSupport
import Testing

/// A writer process is killed with `SIGKILL` at random moments while it saves in a loop; after
/// each kill the store opens, holds every save that returned, and no part of any other save.
///
/// 20 kills by default; `DATASTORE_DURABILITY_KILLS=200 swift test --filter DurabilityTests` for the full run.
@Suite struct DurabilityTests {
    static let kills = ProcessInfo.processInfo.environment["DATASTORE_DURABILITY_KILLS"].flatMap(Int.init) ?? 20

    static let writer = BuiltProducts.directory.appendingPathComponent("durability-writer")

    @Test func killedWhileSaving_keepsEveryReturnedSave_andNoPartialOne() throws {
        let url = TestStores.newStoreURL()
        let model = TestStores.packageRoot.appendingPathComponent("Models/FailedBanks.xcdatamodeld").path
        var lastReported = 0
        var killedMidRun = 0
        var random = SplitMix64.replayable("killedWhileSaving", seedIn: "DATASTORE_DURABILITY_SEED")
        for kill in 1...Self.kills {
            let process = Process()
            process.executableURL = Self.writer
            process.arguments = ["save", url.path, model]
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            // The random delay starts once the writer is saving, however long a busy machine takes to start it.
            var printed = try Self.readUntilReady(output.fileHandleForReading)
            let delay = UInt32.random(in: 20_000...300_000, using: &random)
            usleep(delay)
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            printed += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            try #require(process.terminationReason == .uncaughtSignal, "kill \(kill): the writer stopped by itself: \(message)")
            let reported = printed.split(separator: "\n").compactMap { Int($0.split(separator: " ").last ?? "") }
            if !reported.isEmpty { killedMidRun += 1 }
            lastReported = reported.last ?? lastReported
            let committed = try Self.checkStore(at: url, kill: kill, delay: delay)
            try #require(committed >= lastReported, "kill \(kill) after \(delay) µs: save \(lastReported) returned but the store holds \(committed)")
            try #require(committed <= lastReported + 1, "kill \(kill): the store holds save \(committed), later than the one in flight")
            lastReported = committed
        }
        #expect(lastReported > Self.kills, "too few saves to mean anything: \(lastReported)")
        #expect(killedMidRun > Self.kills / 2, "most kills should land while saving")
    }

    /// Reads the writer's output up to its `ready` line and returns what came after it.
    static func readUntilReady(_ output: FileHandle) throws -> String {
        var printed = ""
        while true {
            let chunk = output.availableData
            try #require(!chunk.isEmpty, "the writer ended before it was ready")
            printed += String(decoding: chunk, as: UTF8.self)
            if let ready = printed.range(of: "ready\n") { return String(printed[ready.upperBound...]) }
        }
    }

    /// Opens the store as the runtime does, checks it is exactly the state after some save n, and returns n.
    static func checkStore(at url: URL, kill: Int, delay: UInt32) throws -> Int {
        _ = try PersistentStore(url: url, model: TestStores.failedBanks)
        let database = try DatabaseQueue(path: url.path)
        defer { try? database.close() }
        return try database.read { db in
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"], "kill \(kill)")
            let ledger = try String.fetchAll(db, sql: "SELECT ZCITY FROM ZFAILEDBANKINFO WHERE ZNAME = 'ledger'")
            guard let ledgerCity = ledger.first else {
                #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM ZFAILEDBANKINFO") == 0, "kill \(kill): banks without a ledger")
                return 0
            }
            #expect(ledger.count == 1, "kill \(kill)")
            let save = try #require(Int(ledgerCity))
            // Banks of the last four saves, each with its details; nothing else.
            var expected: Set<String> = ["ledger"]
            for number in max(1, save - 3)...max(1, save) where save > 0 {
                let count = number % 10 == 0 ? 200 : number % 5 + 1
                for index in 0..<count { expected.insert("save \(number) bank \(index)") }
            }
            let names = Set(try String.fetchAll(db, sql: "SELECT ZNAME FROM ZFAILEDBANKINFO"))
            #expect(names == expected, "kill \(kill) after \(delay) µs, save \(save): \(names.symmetricDifference(expected).sorted().prefix(5))")
            let mismatched = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM ZFAILEDBANKINFO i LEFT JOIN ZFAILEDBANKDETAILS d ON d.Z_PK = i.ZDETAILS
                WHERE i.ZNAME <> 'ledger' AND (d.Z_PK IS NULL OR d.ZINFO <> i.Z_PK OR i.ZNAME NOT LIKE 'save ' || d.ZZIP || ' bank %')
                """)
            #expect(mismatched == 0, "kill \(kill): banks whose details are missing or wrong")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM ZFAILEDBANKDETAILS") == expected.count - 1, "kill \(kill): orphaned details")
            let lagging = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM Z_PRIMARYKEY p WHERE p.Z_MAX < (SELECT ifnull(max(Z_PK), 0) FROM ZFAILEDBANKINFO) AND p.Z_NAME = 'FailedBankInfo'
                   OR p.Z_MAX < (SELECT ifnull(max(Z_PK), 0) FROM ZFAILEDBANKDETAILS) AND p.Z_NAME = 'FailedBankDetails'
                """)
            #expect(lagging == 0, "kill \(kill): Z_MAX below the largest Z_PK")
            return save
        }
    }
}
