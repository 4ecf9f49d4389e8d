import DataStore
import Foundation
import Library
import Logging
import PostgreSQLStore
import PostgresNIO
import TestSupport
import Testing
import WriterReports

/// Changes across servers: a save on one store reaches every other store on the same database —
/// another process, or another machine — as its exact change set, through `LISTEN/NOTIFY` and the
/// persistent history written in the save's transaction.
///
/// Runs on the tests' PostgreSQL server (`PostgreSQLTestServer`). The writers' test runs 3 seconds
/// by default; `DATASTORE_POSTGRES_WRITE_SECONDS=10` for the full run.
@Suite(.enabled(if: PostgreSQLTestServer.url != nil, PostgreSQLTestServer.unavailableReason))
struct PostgreSQLChangeDeliveryTests {
    static let writeSeconds = ProcessInfo.processInfo.environment["DATASTORE_POSTGRES_WRITE_SECONDS"].flatMap(Double.init) ?? 3

    /// Change sets as they arrive, with the time of arrival.
    final class Arrivals: @unchecked Sendable {
        private var received: [(changes: ChangeSet, time: ContinuousClock.Instant)] = []
        private let lock = NSLock()

        init(_ store: PersistentStore) {
            store.addObserver { [self] changes in
                let time = ContinuousClock.now
                lock.withLock { received.append((changes, time)) }
            }
        }

        var all: [(changes: ChangeSet, time: ContinuousClock.Instant)] { lock.withLock { received } }

        /// Waits up to ten seconds for a change set that `matches`; its arrival time. Tests that
        /// block threads of Swift's cooperative pool while they wait for the server (the
        /// synchronous API's) may hold the listener back for seconds on a small machine; the
        /// writer processes' test measures delivery where nothing else runs.
        func wait(for matches: (ChangeSet) -> Bool) async throws -> ContinuousClock.Instant? {
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                if let found = all.first(where: { matches($0.changes) }) { return found.time }
                try await Task.sleep(for: .milliseconds(2))
            }
            return nil
        }
    }

    @Test func anotherStoresSave_arrivesAsItsChanges_andMovesTheList() async throws {
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let here = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            let there = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            let arrivals = Arrivals(here)
            let context = here.newContext()
            let byTitle = FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("title")])
            let controller = FetchedResultsController(fetchRequest: byTitle, context: context)
            // A controller with a delegate tracks its context's changes.
            let delegate = RecordingDelegate<Book>()
            controller.delegate = delegate
            try await controller.performFetch()

            let writer = there.newContext()
            let (emma, ulysses) = (Book(context: writer), Book(context: writer))
            (emma.title, ulysses.title) = ("Emma", "Ulysses")
            try await writer.save()
            _ = try #require(try await arrivals.wait { $0.inserted == [emma.objectID, ulysses.objectID] }, "the insert arrives")
            emma.title = "Persuasion"
            writer.delete(ulysses)
            try await writer.save()
            _ = try #require(try await arrivals.wait { $0.deleted == [ulysses.objectID] }, "the update and delete arrive")

            let changes = arrivals.all.map(\.changes)
            #expect(changes.count == 2, "one change set per save, and none for this store's own")
            #expect(changes.last?.updated == [emma.objectID: ["title"]])
            #expect(changes.allSatisfy { !$0.isExternalWrite })
            for changeSet in changes { context.mergeChanges(from: changeSet) }
            #expect(controller.fetchedObjects?.map(\.title) == ["Persuasion"])
            #expect(delegate.reports == 2, "the delegate heard of each change set")
            // Nothing is left to deliver.
            #expect(try !here.checkForExternalChanges())
        }
    }

    /// Transactions deleted before a store read them leave a gap in the numbers: the store cannot
    /// tell what they changed, and says so before the next transaction's changes.
    @Test func transactionsDeletedBeforeTheyWereRead_arriveAsAnExternalWrite() async throws {
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let here = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            let there = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            let arrivals = Arrivals(here)
            let writer = there.newContext()
            let first = Book(context: writer)
            try await writer.save()
            _ = try #require(try await arrivals.wait { $0.inserted == [first.objectID] }, "a transaction with no gap before it")
            #expect(arrivals.all.allSatisfy { !$0.changes.isExternalWrite })

            // Three transactions committed and deleted while this store was not reading: their
            // numbers are taken, their rows gone.
            let admin = try await PostgresConnection.connect(
                configuration: PostgresConnection.Configuration(url: database), id: 1, logger: Logger(label: "tests"))
            try await admin.query(#"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = "Z_MAX" + 3 WHERE "Z_ENT" = 16002"#, logger: admin.logger)
            try await admin.close()
            let second = Book(context: writer)
            try await writer.save()
            _ = try #require(try await arrivals.wait { $0.inserted == [second.objectID] }, "the transaction after the gap")
            let received = arrivals.all.map(\.changes)
            #expect(received.count == 3)
            #expect(received.dropFirst().first?.isExternalWrite == true, "the gap is told first")
            #expect(try !here.checkForExternalChanges(), "and only once")
        }
    }

    /// A store opened after the whole history was deleted starts after its last number, which
    /// `Z_PRIMARYKEY` keeps: the next transaction is no gap.
    @Test func aStoreOpenedAfterTheHistoryWasDeleted_findsNoGap() async throws {
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let first = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            let writer = first.newContext()
            for _ in 0..<2 {
                _ = Book(context: writer)
                try await writer.save()
            }
            try first.deleteHistory(before: Date().addingTimeInterval(1))
            #expect(try first.fetchHistory(after: nil as HistoryToken?).isEmpty)
            let late = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            let arrivals = Arrivals(late)
            let book = Book(context: writer)
            try await writer.save()
            _ = try #require(try await arrivals.wait { $0.inserted == [book.objectID] })
            #expect(arrivals.all.count == 1 && !arrivals.all[0].changes.isExternalWrite)
        }
    }

    @Test func aListenerWhoseConnectionEnds_listensAgain_andLosesNoChange() async throws {
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let here = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            let there = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            let arrivals = Arrivals(here)
            let admin = try await PostgresConnection.connect(
                configuration: PostgresConnection.Configuration(url: database), id: 1, logger: Logger(label: "tests"))
            var ended = 0
            while ended == 0 {
                try await Task.sleep(for: .milliseconds(20))
                let rows = try await admin.query(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'",
                    logger: admin.logger)
                for try await count in rows.decode(Int.self) { ended += count }
            }
            try await admin.close()
            // Saved while the listener may be reconnecting: found when it listens again.
            let writer = there.newContext()
            let book = Book(context: writer)
            book.title = "While away"
            try await writer.save()
            #expect(try await arrivals.wait { $0.inserted == [book.objectID] } != nil, "the save arrives after the reconnection")
            #expect(arrivals.all.count == 1)
        }
    }

    @Test func aStoreWithoutHistory_savesUntold_untilOpenedWithIt() async throws {
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let alone = try await PersistentStore(postgreSQL: database, model: TestStores.library, history: .disabledDeletingHistory)
            let other = try await PersistentStore(postgreSQL: database, model: TestStores.library, history: .automatic)
            let arrivals = Arrivals(other)
            let context = alone.newContext()
            Book(context: context).title = "Untold"
            try await context.save()
            #expect(try !other.checkForExternalChanges(), "without history, nothing tells the other store")
            // Opened with history (the default), the store records it again, and saves are told.
            let told = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            let listening = try await PersistentStore(postgreSQL: database, model: TestStores.library, history: .automatic)
            let heard = Arrivals(listening)
            let writer = told.newContext()
            let book = Book(context: writer)
            book.title = "Told"
            try await writer.save()
            #expect(try await heard.wait { $0.inserted == [book.objectID] } != nil)
            #expect(arrivals.all.isEmpty)
            #expect(try await listening.newContext().count(for: FetchRequest<Book>()) == 2)
        }
    }

    /// Four writer processes update the same objects for a few seconds: every update that saved
    /// is in the store (none lost), every refused one was `SaveError.conflicts`, and each save
    /// reached the three other processes' results controllers, each writer's saves in the order
    /// it made them. How long delivery took is printed (`DATASTORE_POSTGRES_WRITE_SECONDS=10` for
    /// the longer run); the benchmarks measure it.
    @Test func writerProcesses_loseNoUpdate_andEachListHearsOfEverySave() async throws {
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let writers = 4, counters = 8
            let setup = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            let context = setup.newContext()
            let books = (0..<counters).map { index in
                let book = Book(context: context)
                book.title = "Counter \(index)"
                book.wordCount = 0
                return book
            }
            try await context.save()
            let processes = try (0..<writers).map { writer in
                try WriterProcess(["server-write", database, String(writer), String(Self.writeSeconds)])
            }
            for process in processes { try process.waitUntilReady() }
            for process in processes { process.start() }
            let reports = try processes.map { try JSONDecoder().decode(ServerWriterReport.self, from: try $0.finish()) }

            let saves = reports.flatMap { report in report.saves.map { (writer: report.writer, save: $0) } }
            let conflicts = reports.map(\.conflicts).reduce(0, +)
            try #require(saves.count > writers * 2, "the writers saved \(saves.count) times")
            #expect(conflicts > 0, "overlapping writers meet conflicts")
            // No update is lost: each counter is the number of saved increments of it.
            let reader = setup.newContext()
            for (index, book) in books.enumerated() {
                let counter = try #require(reader.object(with: book.objectID) as? Book)
                #expect(counter.wordCount == saves.filter { $0.save.counters.contains(index) }.count, "counter \(index)")
            }
            // Each save entered every other writer's list, each writer's saves in the order it made them.
            var latencies: [Duration] = []
            for sender in reports {
                for report in reports where report.writer != sender.writer {
                    var previous: UInt64 = 0
                    for save in sender.saves {
                        let arrival = try #require(report.arrivals[save.marker], "writer \(sender.writer)'s marker \(save.marker) reached writer \(report.writer)")
                        #expect(arrival >= previous, "writer \(sender.writer)'s marker \(save.marker) reached writer \(report.writer) before the save made before it")
                        previous = arrival
                        latencies.append(.nanoseconds(Int64(arrival) - Int64(save.end)))
                    }
                }
            }
            latencies.sort()
            let median = latencies[latencies.count / 2], slowest = latencies.last ?? .zero
            let summary = "median \(median), 95th percentile \(latencies[latencies.count * 95 / 100]), slowest \(slowest)"
            print("\(saves.count) saves, \(conflicts) conflicts; delivery to the other writers' lists: \(summary)")
        }
    }

    /// A `durability-writer` child process: started, then told to go once every writer is ready.
    /// One that has not ended after two minutes is ended, so a stuck writer fails the test
    /// rather than hold the run.
    final class WriterProcess {
        static let executable = BuiltProducts.directory.appendingPathComponent("durability-writer")

        private let process = Process()
        private let input = Pipe(), output = Pipe(), errors = Pipe()
        /// What the writer wrote to its standard error, read to its end as it comes (so that the
        /// writer never waits on a full pipe) on a thread of its own.
        private let errorOutput = Collector<Data>()
        private let errorsRead = DispatchGroup()

        init(_ arguments: [String]) throws {
            process.executableURL = Self.executable
            process.arguments = arguments
            (process.standardInput, process.standardOutput, process.standardError) = (input, output, errors)
            try process.run()
            DispatchQueue.global().async(group: errorsRead) { [errors, errorOutput] in
                errorOutput.append(errors.fileHandleForReading.readDataToEndOfFile())
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + 120) { [process] in
                if process.isRunning { process.terminate() }
            }
        }

        // A writer left behind by a failed test does not write on.
        deinit {
            if process.isRunning { process.terminate() }
        }

        func waitUntilReady() throws {
            var printed = ""
            while !printed.hasSuffix("ready\n") {
                let chunk = output.fileHandleForReading.availableData
                try #require(!chunk.isEmpty, "the writer ended before it was ready: \(errorText)")
                printed += String(decoding: chunk, as: UTF8.self)
            }
        }

        func start() {
            input.fileHandleForWriting.write(Data("go\n".utf8))
        }

        /// Its report, once it ends.
        func finish() throws -> Data {
            let report = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0, "the writer failed: \(errorText)")
            return report
        }

        /// The writer's standard error, once it ended.
        private var errorText: String {
            _ = errorsRead.wait(timeout: .now() + 5)
            return String(decoding: errorOutput.all.joined(), as: UTF8.self)
        }
    }
}
