import DataStore
import Foundation
import GRDB
import GeneratedBooks
import Testing

/// Four contexts on two tasks save conflicting changes (shared counters) and non-conflicting ones
/// (their own counter and new objects) as fast as they can: every save either lands whole or fails
/// with a conflict, and no increment is lost.
///
/// Each task runs 2 seconds from its start, and at least `minimumRounds` rounds however busy the
/// machine is; `DATASTORE_STRESS_SECONDS=10 swift test --filter ConcurrencyStressTests` for the full run.
@Suite struct ConcurrencyStressTests {
    static let seconds = ProcessInfo.processInfo.environment["DATASTORE_STRESS_SECONDS"].flatMap(Double.init) ?? 2
    static let sharedCounters = 3
    /// Enough saves to mean something even when the test pool starves the tasks of time.
    static let minimumRounds = 100

    /// What one context did: its successful increments of each shared counter, its saves and conflicts.
    struct Tally: Sendable {
        var context: Int
        var sharedIncrements = Array(repeating: 0, count: ConcurrencyStressTests.sharedCounters)
        var saves = 0
        var conflicts = 0
    }

    @Test func fourContextsOnTwoTasks_loseNoUpdate_andReportEveryConflict() async throws {
        let store = try TestStores.newStore(TestStores.books)
        let setup = store.newContext()
        for index in 0..<Self.sharedCounters { Book(context: setup).title = "shared \(index)" }
        for context in 0..<4 { Book(context: setup).title = "own \(context)" }
        try await setup.save()

        let tallies = try await withThrowingTaskGroup(of: [Tally].self) { group in
            for task in 0..<2 {
                group.addTask { try Self.work(store: store, contexts: [2 * task, 2 * task + 1]) }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }

        let check = store.newContext()
        let books = try await check.fetch(FetchRequest<Book>())
        func book(_ title: String) throws -> Book { try #require(books.first { $0.title == title }) }
        for index in 0..<Self.sharedCounters {
            let increments = tallies.reduce(0) { $0 + $1.sharedIncrements[index] }
            #expect(try book("shared \(index)").price == Double(increments), "shared counter \(index)")
        }
        for tally in tallies {
            #expect(try book("own \(tally.context)").price == Double(tally.saves), "context \(tally.context)'s counter")
            #expect(books.filter { $0.title.hasPrefix("log \(tally.context) ") }.count == tally.saves, "context \(tally.context)'s objects")
        }
        let saves = tallies.reduce(0) { $0 + $1.saves }
        let conflicts = tallies.reduce(0) { $0 + $1.conflicts }
        #expect(saves > 100, "too few saves to mean anything: \(saves)")
        #expect(conflicts > 0, "the shared counters never conflicted")

        // Each landed save of a counter moved its version on by exactly one.
        let database = try DatabaseQueue(path: try #require(store.url).path)
        try await database.read { db in
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            let unbalanced = try Int.fetchOne(db, sql: "SELECT count(*) FROM ZBOOK WHERE ZTITLE NOT LIKE 'log %' AND Z_OPT <> ZPRICE + 1")
            #expect(unbalanced == 0)
        }
    }

    /// Alternates between its contexts: each save increments a random shared counter and the
    /// context's own counter, and inserts an object; a conflict is rolled back and the stale
    /// objects refreshed.
    static func work(store: PersistentStore, contexts numbers: [Int]) throws -> [Tally] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        let contexts = numbers.map { _ in store.newContext() }
        var tallies = numbers.map { Tally(context: $0) }
        // The counters, held for the whole run: a context keeps one object per row (uniquing).
        let counters = try contexts.enumerated().map { position, context in
            let books = try context.fetch(FetchRequest<Book>())
            let shared = (0..<sharedCounters).compactMap { index in books.first { $0.title == "shared \(index)" } }
            let own = books.first { $0.title == "own \(numbers[position])" }
            return (shared: shared, own: try #require(own))
        }
        var rounds = 0
        while rounds < minimumRounds || ContinuousClock.now < deadline {
            rounds += 1
            for (position, context) in contexts.enumerated() {
                let shared = Int.random(in: 0..<sharedCounters)
                let counter = counters[position].shared[shared], own = counters[position].own
                counter.price += 1
                own.price += 1
                Book(context: context).title = "log \(numbers[position]) \(tallies[position].saves)"
                switch Result(catching: { () throws(SaveError) in try context.save() }) {
                case .success:
                    tallies[position].saves += 1
                    tallies[position].sharedIncrements[shared] += 1
                case .failure(.conflicts(let conflicts)):
                    tallies[position].conflicts += 1
                    #expect(conflicts.allSatisfy { $0.objectID == counter.objectID }, "only shared counters can conflict")
                    context.rollback()
                    for conflict in conflicts { context.refresh(context.object(with: conflict.objectID), mergeChanges: false) }
                case .failure(let error):
                    throw error
                }
            }
        }
        return tallies
    }
}
