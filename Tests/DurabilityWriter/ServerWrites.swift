import DataStore
import Dispatch
import Foundation
import Library
import PostgreSQLStore
import WriterReports

/// One writer process of the PostgreSQL writers' test. Opens the store, prints `ready`, waits for
/// a line on its input, then for `seconds` increments two random counters (the books titled
/// `Counter …`) per save, each save inserting a marker tag. Meanwhile a results controller over
/// the tags, kept current from the store's change sets, notes when each other writer's marker
/// arrives. A second after writing it prints its `ServerWriterReport` as JSON.
func writeOnServer(database: String, writer: Int, seconds: Double) async throws {
    let store = try await PersistentStore(postgreSQL: database, model: Everything.model)
    let markers = try MarkerList(store)
    let counterIDs = try counters(in: store)
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    // No line: the test that started it is gone.
    guard readLine() != nil else { exit(1) }
    var report = ServerWriterReport(writer: writer)
    var random = SystemRandomNumberGenerator()
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        let context = store.newContext()
        let chosen = Array(Set((0..<2).map { _ in Int.random(in: 0..<counterIDs.count, using: &random) }))
        let books = try await context.fetch(FetchRequest<Book>(predicate: try ObjectPredicate(format: "self IN %@", chosen.map { counterIDs[$0] })))
        for book in books { book.wordCount = (book.wordCount ?? 0) + 1 }
        let marker = Tag(context: context)
        marker.name = "writer \(writer)"
        do {
            try await context.save()
            report.saves.append(.init(counters: chosen, marker: marker.objectID.primaryKey ?? 0, end: DispatchTime.now().uptimeNanoseconds))
        } catch {
            guard case .conflicts = error else { throw error }
            report.conflicts += 1
        }
        // A server's clients save at a pace, not in a tight loop on a small machine.
        try await Task.sleep(for: .milliseconds(10))
    }
    // The others' last saves arrive meanwhile.
    try await Task.sleep(for: .seconds(1))
    report.arrivals = markers.arrivals
    FileHandle.standardOutput.write(try JSONEncoder().encode(report))
}

/// The counters' IDs, in title order: the same order in every writer.
private func counters(in store: PersistentStore) throws -> [ObjectID] {
    let request = FetchRequest<Book>(predicate: try ObjectPredicate(format: "title BEGINSWITH 'Counter'"), sortDescriptors: [ObjectSortDescriptor("title")])
    return try store.newContext().fetch(request).map(\.objectID)
}

/// A results controller over every tag, merged each change set the store delivers, as a
/// server's list would be; when each tag entered it.
final class MarkerList: @unchecked Sendable {
    private final class InsertionTimes: FetchedResultsControllerDelegate {
        var times: [Int64: UInt64] = [:]

        func controller(_ controller: FetchedResultsController<Tag>, didChange change: FetchedResultsChange) {
            guard change.type == .insert, let key = change.objectID.primaryKey else { return }
            times[key] = DispatchTime.now().uptimeNanoseconds
        }
    }

    // The context, controller and delegate are used under the lock only.
    private let lock = NSLock()
    private let context: ObjectContext
    private let controller: FetchedResultsController<Tag>
    private let delegate = InsertionTimes()

    init(_ store: PersistentStore) throws {
        context = store.newContext()
        controller = FetchedResultsController(fetchRequest: FetchRequest<Tag>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("name")]), context: context)
        controller.delegate = delegate
        try lock.withLock {
            try controller.performFetch()
            _ = store.addObserver { [self] changes in
                lock.withLock { context.mergeChanges(from: changes) }
            }
        }
    }

    var arrivals: [Int64: UInt64] { lock.withLock { delegate.times } }
}
