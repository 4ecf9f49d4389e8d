import DataModelParser
@testable import DataStore
import Foundation
import GRDB
import TestSupport
import Testing

/// A migration killed at any moment, stopped by a full disk or refused a read-only file leaves the
/// store exactly as it was or exactly as an uninterrupted migration leaves it, never between.
///
/// A child process opens a store written by `Everything 1` with `Everything 2`, which migrates it
/// (tables rebuilt, entities renumbered, an ordered to-many moved); every outcome is compared,
/// table by table and row by row, with the store before and with a store migrated without
/// interruption. Kills follow `DATASTORE_DURABILITY_KILLS` (20 by default, 200 in the full run).
@Suite(.serialized) struct MigrationDurabilityTests {
    static let bundle = TestStores.packageRoot.appendingPathComponent("Models/Everything.xcdatamodeld").path

    /// A store at version 1 with enough rows that migrating it takes a while, and what it holds.
    static let original: (url: URL, contents: [String]) = {
        let version1 = try! ModelLoader().loadVersions(bundle).versions[0].model
        let url = try! MigrationSupport.store(version1) { context in
            let authors = try (0..<50).map { number in
                let author = try context.insertObject(entityName: "Author")
                try author.setValue("Author \(number)", forKey: "name")
                return author
            }
            for number in 0..<6_000 {
                let book = try context.insertObject(entityName: "Book")
                try book.setValue("Book \(number)", forKey: "name")
                try book.setValue(Int64(number % 700), forKey: "pageCount")
                try book.setValue(authors[number % authors.count], forKey: "author")
                let chapters = try (0..<4).map { chapter in
                    let object = try context.insertObject(entityName: "Chapter")
                    try object.setValue("Book \(number) chapter \(chapter)", forKey: "title")
                    return object
                }
                try book.setValue(Array(chapters.reversed()), forKey: "chapters")
            }
        }
        return (url, try! contents(of: url))
    }()

    /// The store after an uninterrupted migration, and how long the migration took.
    static let migrated: (contents: [String], duration: Duration) = {
        let url = try! copy(of: original.url)
        let run = try! migrate(url)
        precondition(run.output.contains("migrated"), "the migration failed: \(run.output)")
        return (try! contents(of: url), run.duration!)
    }()

    @Test func killedWhileMigrating_leavesTheOldStoreOrTheNew() throws {
        let window = Self.migrated.duration
        #expect(Self.migrated.contents != Self.original.contents)
        var old = 0, new = 0
        var random = SplitMix64.replayable("killedWhileMigrating", seedIn: "DATASTORE_DURABILITY_SEED")
        for kill in 1...DurabilityTests.kills {
            let url = try Self.copy(of: Self.original.url)
            // Most kills land inside the migration; some before it starts or after it ends.
            let delay = window * Double.random(in: 0...1.3, using: &random)
            let run = try Self.migrate(url, killAfter: delay)
            #expect(try MigrationSupport.integrity(url) == "ok", "kill \(kill)")
            switch try Self.contents(of: url) {
            case Self.original.contents:
                old += 1
                // The next launch migrates the store that the kill left old.
                if kill % 4 == 0 {
                    #expect(try Self.migrate(url).output.contains("migrated"))
                    #expect(try Self.contents(of: url) == Self.migrated.contents, "kill \(kill): migrating again")
                }
            case Self.migrated.contents:
                new += 1
            default:
                Issue.record("kill \(kill) after \(delay): the store is neither the old one nor the migrated one (\(run.output))")
            }
        }
        #expect(old > 0 && new > 0, "kills should leave both outcomes: \(old) old, \(new) new")
    }

    @Test func diskFullDuringMigration_throwsStorageFull_andLeavesTheStore() throws {
        let url = try Self.copy(of: Self.original.url)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        // SQLite's own limit on the store's pages fails as a full disk does (`SQLITE_FULL`), here
        // when the rebuilt tables have grown the store by a tenth.
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA max_page_count = \(size / 4096 * 11 / 10)") }
        let database = try DatabasePool(path: url.path, configuration: configuration)
        let versions = try ModelLoader().loadVersions(Self.bundle).versions.map(\.model)
        let model = ManagedObjectModel(model: versions[1], versions: versions)
        #expect(throws: StoreError.migration(.storageFull)) {
            try PersistentStore.migrate(database, url: url, model: model, options: .automatic)
        }
        try database.close()
        #expect(try MigrationSupport.integrity(url) == "ok")
        #expect(try Self.contents(of: url) == Self.original.contents)
    }

    @Test func fileSizeLimitReachedDuringMigration_throwsATypedError_andLeavesTheStore() throws {
        let url = try Self.copy(of: Self.original.url)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        // Half the store's size: the commit has written part of the log when a write is refused.
        let run = try Self.migrate(url, arguments: ["--file-size-limit", String(size / 2)])
        #expect(run.output.contains("failed: database: the migration failed and changed nothing: disk I/O error"), "\(run.output)")
        #expect(try MigrationSupport.integrity(url) == "ok")
        #expect(try Self.contents(of: url) == Self.original.contents)
    }

    @Test func readOnlyStore_throwsATypedError_andLeavesTheStore() throws {
        let url = try Self.copy(of: Self.original.url)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
        let run = try Self.migrate(url, arguments: ["--unprivileged"])
        #expect(run.output.contains("failed: readOnlyFile: "), "\(run.output)")
        #expect(try Self.contents(of: url) == Self.original.contents)
    }

    // MARK: - Helpers

    /// Every table's definition and rows, and every index and trigger.
    static func contents(of url: URL) throws -> [String] {
        let database = try DatabaseQueue(path: url.path)
        defer { try? database.close() }
        return try database.read { db in
            var lines = try String.fetchAll(db, sql: "SELECT type || ' ' || name || ': ' || ifnull(sql, '') FROM sqlite_master ORDER BY type, name")
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
                lines += try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1").map { "\(table): \($0)" }
            }
            return lines
        }
    }

    /// A copy of the store file in a directory of its own (the original was closed, so it has no `-wal`).
    static func copy(of url: URL) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migration-durability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let copy = directory.appendingPathComponent(url.lastPathComponent)
        try FileManager.default.copyItem(at: url, to: copy)
        return copy
    }

    /// Runs the child process that opens `url` with the current version, killing it `killAfter`
    /// its `ready` line when given. Returns what it printed and, when it was not killed, how long
    /// it took from `ready` to the end.
    static func migrate(_ url: URL, arguments: [String] = [], killAfter delay: Duration? = nil) throws -> (output: String, duration: Duration?) {
        let process = Process()
        process.executableURL = DurabilityTests.writer
        process.arguments = ["migrate", url.path, bundle] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var printed = try DurabilityTests.readUntilReady(output.fileHandleForReading)
        let clock = ContinuousClock()
        let start = clock.now
        if let delay {
            Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) * 1e-18)
            Foundation.kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        let duration = clock.now - start
        printed += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        printed += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (printed, process.terminationReason == .uncaughtSignal ? nil : duration)
    }
}
