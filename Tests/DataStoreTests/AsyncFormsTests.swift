import DataModel
import DataStore
import Foundation
import Library
import TestSupport
import Testing

/// The asynchronous forms of fetching, counting, batched and dictionary fetches, faulting and opening: the same
/// results as the synchronous forms, with the caller's isolation free while the store is read.
///
/// 300 random requests by default; `DATASTORE_ASYNC_CASES=5000 swift test --filter AsyncFormsTests`
/// for the full run (`DATASTORE_ASYNC_SEED` replays one).
@Suite struct AsyncFormsTests {
    static let cases = ProcessInfo.processInfo.environment["DATASTORE_ASYNC_CASES"].flatMap(Int.init) ?? 300
    static let seed = ProcessInfo.processInfo.environment["DATASTORE_ASYNC_SEED"].flatMap(UInt64.init) ?? .random(in: 1...UInt64.max)

    /// Random requests — predicates, sorts, limits, offsets, batch sizes, IDs only, prefetching,
    /// with and without pending changes — give, in two contexts with the same unsaved edits, the
    /// same objects in the same order with the same values, the same count, the same IDs and the
    /// same dictionary results, grouped or not.
    @Test(arguments: TestedEngine.available) func randomRequests_asyncFormsEqualSynchronousForms(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine, awaiting: { store in
            let cases = engine.share(of: Self.cases, fullCountIn: "DATASTORE_ASYNC_CASES")
            var random = SplitMix64(seed: Self.seed)
            let objects = try RandomLibrary.populate(store, &random)
            var generator = RandomPredicate(objects: objects, random: random)
            var differentFromStore = 0
            var index = 0
            // `cases` cases, then more (up to three times as many) until enough of them merge
            // unsaved changes: which cases do is drawn at random, and a small count could fall short.
            while index < cases || (differentFromStore <= cases / 8 && index < 4 * cases) {
                defer { index += 1 }
                let edits = Edits.random(&random, books: objects.books)
                // One case in three fetches in child contexts, whose parents hold the edits.
                let inChildren = Int.random(in: 0..<3, using: &random) == 0
                let synchronous = store.newContext(), asynchronous = store.newContext()
                try edits.apply(to: synchronous)
                try edits.apply(to: asynchronous)
                let (fetching, fetchingAsynchronously) = inChildren
                    ? (synchronous.newChildContext(), asynchronous.newChildContext()) : (synchronous, asynchronous)

                var request = FetchRequest<ManagedObject>(entityName: ["Book", "Ebook"].randomElement(using: &random)!)
                if Int.random(in: 0..<4, using: &random) > 0 {
                    let (format, arguments) = generator.predicate(depth: 2)
                    request.predicate = try ObjectPredicate(format: format, arguments: arguments)
                }
                request.sortDescriptors = generator.sortDescriptors()
                if Bool.random(using: &random) { request.fetchLimit = Int.random(in: 1...12, using: &random) }
                if Bool.random(using: &random) { request.fetchOffset = Int.random(in: 0...8, using: &random) }
                if Int.random(in: 0..<4, using: &random) == 0 { request.fetchBatchSize = Int.random(in: 1...7, using: &random) }
                request.includesPendingChanges = Int.random(in: 0..<4, using: &random) > 0
                request.includesPropertyValues = Int.random(in: 0..<5, using: &random) > 0
                request.returnsObjectsAsFaults = Bool.random(using: &random)
                request.relationshipKeyPathsForPrefetching = ["author", "chapters", "tags", "shelf.books"].filter { _ in Int.random(in: 0..<3, using: &random) == 0 }
                let label = "case \(index), seed \(Self.seed)\(inChildren ? ", in children" : ""): \(request.predicate.map { "\($0)" } ?? "no predicate") edits \(edits)"

                let expected = try Self.synchronousResults(of: request, in: fetching)
                let fetched = try await fetchingAsynchronously.fetch(request)
                try #require(fetched.map(Edits.describe) == expected.objects.map(Edits.describe), "\(label)")
                try #require(try await fetchingAsynchronously.count(for: request) == expected.count, "\(label): count")
                let fetchedIDs = try await fetchingAsynchronously.fetchObjectIDs(request).map { Edits.describe(fetchingAsynchronously.object(with: $0)) }
                try #require(fetchedIDs == expected.ids.map { Edits.describe(fetching.object(with: $0)) }, "\(label): object IDs")
                let batched = try await fetchingAsynchronously.fetchBatched(request)
                try #require(batched.map(Edits.describe) == expected.objects.map(Edits.describe), "\(label): batched")
                var dictionaries = request
                dictionaries.fetchBatchSize = 0
                if Int.random(in: 0..<3, using: &random) == 0 {
                    dictionaries.propertiesToFetch = ["author.name", .count("title", as: "books"), .maximum("pageCount", as: "longest")]
                    dictionaries.propertiesToGroupBy = ["author.name"]
                    dictionaries.sortDescriptors = [ObjectSortDescriptor("author.name")]
                } else {
                    dictionaries.propertiesToFetch = ["title", "pageCount", "author.name", "author"]
                }
                let expectedDictionaries = try Self.synchronousDictionaries(of: dictionaries, in: fetching)
                try #require(try await fetchingAsynchronously.fetchDictionaries(dictionaries) == expectedDictionaries, "\(label): dictionaries")
                // A results controller needs a sort order.
                var listing = request
                if listing.sortDescriptors.isEmpty { listing.sortDescriptors = [ObjectSortDescriptor("title")] }
                let controller = FetchedResultsController(fetchRequest: listing, context: fetchingAsynchronously)
                try await controller.performFetch()
                let listed = try Self.controllerObjects(of: listing, in: fetching).map(Edits.describe)
                try #require(controller.fetchedObjects.map { Array($0).map(Edits.describe) } == listed, "\(label): results controller")
                if !edits.isEmpty, request.includesPendingChanges, !expected.objects.isEmpty { differentFromStore += 1 }
            }
            // Enough cases must merge unsaved changes, or the comparison leaves that path out.
            #expect(differentFromStore > cases / 8, "only \(differentFromStore) of \(index) cases had pending changes to merge")
        })
    }

    /// The synchronous forms' results (in `async` code, the same calls mean the asynchronous forms).
    private static func synchronousResults(
        of request: FetchRequest<ManagedObject>, in context: ObjectContext
    ) throws -> (objects: [ManagedObject], count: Int, ids: [ObjectID]) {
        (try context.fetch(request), try context.count(for: request), try context.fetchObjectIDs(request))
    }

    /// The objects a results controller lists after the synchronous `performFetch()`.
    private static func controllerObjects(of request: FetchRequest<ManagedObject>, in context: ObjectContext) throws -> [ManagedObject] {
        let controller = FetchedResultsController(fetchRequest: request, context: context)
        try controller.performFetch()
        return controller.fetchedObjects.map(Array.init) ?? []
    }

    private static func synchronousDictionaries(of request: FetchRequest<ManagedObject>, in context: ObjectContext) throws -> [[String: PredicateValue]] {
        try context.fetchDictionaries(request)
    }

    private static func fetchSynchronously(_ context: ObjectContext) throws {
        _ = try context.fetch(FetchRequest<Book>())
    }

    /// While the store is read, the caller's actor runs other work; the synchronous form, the
    /// control, holds it until the fetch returns.
    @Test func fetching_leavesTheCallersActorFree() async throws {
        #expect(try await Probe().run { context in _ = try await context.fetch(FetchRequest<Book>()) } == ["other work", "done"])
        #expect(try await Probe().run { context in _ = try await context.count(for: FetchRequest<Book>()) } == ["other work", "done"])
        #expect(try await Probe().run { context in try Self.fetchSynchronously(context) } == ["done", "other work"])
    }

    /// An edit made while a fetch waits for its rows is in its result, as in a fetch started after it.
    @Test func editsWhileAFetchWaits_areInItsResult() async throws {
        let store = try filledStore(books: 50)
        let titles = try await Probe(store: store).fetchTitles { context in
            let first = try context.fetch(FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("title")]))[0]
            context.delete(first)
            Book(context: context).title = "written while waiting"
        }
        #expect(titles.count == 50)
        #expect(titles.contains("written while waiting"))
        #expect(!titles.contains("book 0000"))
    }

    /// An edit to a related object made while a fetch waits for its rows changes which rows
    /// match, as in a fetch started after it — on a server too, where text is judged in memory
    /// and the rows read first are only those the text may match.
    @Test(arguments: TestedEngine.available) func editsToRelatedObjectsWhileAFetchWaits_areInItsResult(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine, awaiting: { store in
            let context = store.newContext()
            for (name, title) in [("Ann", "by Ann"), ("Bob", "by Bob")] {
                let author = Author(context: context)
                author.name = name
                let book = Book(context: context)
                book.title = title
                book.author = author
            }
            try await context.save()
            let request = FetchRequest<Book>(predicate: try ObjectPredicate(format: "author.name BEGINSWITH[c] 'an'"))
            let titles = try await Probe(store: store).fetchTitles(of: request) { context in
                let bob = try context.fetch(FetchRequest<Author>(predicate: try ObjectPredicate(format: "name == 'Bob'")))[0]
                bob.name = "Anna"
            }
            #expect(titles.sorted() == ["by Ann", "by Bob"])
        })
    }

    /// A batch of faults loads in one query per entity; reading them afterwards reads nothing more.
    @Test func fulfillingFaults_readsEachEntityOnce_andThenNothing() async throws {
        let store = try filledStore(books: 700)
        let ids = try await store.newContext().fetchObjectIDs(FetchRequest<Book>())
        let context = store.newContext()
        let faults = ids.map(context.object(with:))
        let log = store.recordSQL()
        try await context.fulfillFaults(of: faults)
        // 700 keys of one entity: two runs of at most 500.
        #expect(log.statements.count == 2)
        #expect(faults.allSatisfy { !$0.isFault })
        log.removeAll()
        let titles = faults.compactMap { ($0 as? Book)?.title }
        #expect(titles.count == 700 && titles.contains("book 0699"))
        #expect(log.statements.isEmpty)
    }

    /// `PersistentStore.open` migrates on a thread of its own, and reports a store it cannot open
    /// with the same typed error as the initializer.
    @Test func openingAsynchronously_migrates_andReportsMismatches() async throws {
        var person = MigrationTests.personV1
        person.attributes.append(Attribute("email", .string, isOptional: true))
        let v2 = MigrationTests.v2(person: person)
        let url = try MigrationSupport.store(MigrationTests.v1, seed: MigrationTests.seed)
        let store = try await PersistentStore.open(url: url, model: ManagedObjectModel(model: v2, versions: [MigrationTests.v1, v2]))
        #expect(try MigrationSupport.columns(url, "ZPERSON").contains("ZEMAIL"))
        #expect(try await store.newContext().count(for: FetchRequest<ManagedObject>(entityName: "Person")) > 0)

        let other = try MigrationSupport.store(MigrationTests.v1, seed: MigrationTests.seed)
        await #expect(throws: StoreError.modelMismatch(entities: ["Person"])) {
            _ = try await PersistentStore.open(url: other, model: ManagedObjectModel(model: v2), migration: .disabled)
        }
    }

    private func filledStore(books: Int) throws -> PersistentStore {
        let store = try TestStores.newStore(TestStores.library)
        let context = store.newContext()
        for index in 0..<books { Book(context: context).title = String(format: "book %04d", index) }
        try context.save()
        return store
    }
}

/// An actor whose jobs are recorded in order: a task started before a fetch runs during the
/// fetch's wait only if the fetch suspends.
private actor Probe {
    private var events: [String] = []
    private let store: PersistentStore?

    init(store: PersistentStore? = nil) {
        self.store = store
    }

    private func note(_ event: String) {
        events.append(event)
    }

    /// Starts other work on this actor, then runs `body` with a context of a new library store.
    /// `body` runs on this actor: a hop elsewhere would free the actor whatever the fetch does.
    func run(_ body: nonisolated(nonsending) (ObjectContext) async throws -> Void) async throws -> [String] {
        let store = try self.store ?? TestStores.newStore(TestStores.library)
        let context = store.newContext()
        for index in 0..<2_000 { Book(context: context).title = "book \(index)" }
        try await context.save()
        let other = Task { self.note("other work") }
        try await body(context)
        note("done")
        await other.value
        return events
    }

    private func apply(_ edit: (ObjectContext) throws -> Void, to context: ObjectContext) throws {
        try edit(context)
    }

    /// The titles an asynchronous fetch of `request` (every book by default) returns when `edit`
    /// runs on this actor while the fetch waits.
    func fetchTitles(
        of request: FetchRequest<Book> = FetchRequest<Book>(), editing edit: @escaping @Sendable (ObjectContext) throws -> Void
    ) async throws -> [String] {
        let context = store!.newContext()
        // Captures `self`, so it runs on this actor.
        let editing = Task { try self.apply(edit, to: context) }
        let books = try await context.fetch(request)
        try await editing.value
        return books.map(\.title)
    }
}

/// The same unsaved edits, made in any context: titles changed, books deleted, new books.
private struct Edits: CustomStringConvertible {
    var retitled: [(ObjectID, String)] = []
    var deleted: [ObjectID] = []
    var inserted: [String] = []

    var isEmpty: Bool { retitled.isEmpty && deleted.isEmpty && inserted.isEmpty }
    var description: String { "retitled \(retitled.map(\.1)), deleted \(deleted.count), inserted \(inserted)" }

    static func random(_ random: inout SplitMix64, books: [ObjectID]) -> Edits {
        var edits = Edits()
        guard Bool.random(using: &random) else { return edits }
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            edits.retitled.append((books.randomElement(using: &random)!, RandomLibrary.strings.randomElement(using: &random)!))
        }
        edits.deleted = (0..<Int.random(in: 0...2, using: &random)).map { _ in books.randomElement(using: &random)! }
        edits.inserted = (0..<Int.random(in: 0...2, using: &random)).map { "new \($0) " + RandomLibrary.strings.randomElement(using: &random)! }
        return edits
    }

    func apply(to context: ObjectContext) throws {
        for (id, title) in retitled { try context.object(with: id).setValue(title, forKey: "title") }
        for id in deleted { context.delete(context.object(with: id)) }
        for title in inserted {
            let book = try context.insertObject(entityName: "Ebook")
            try book.setValue(title, forKey: "title")
            try book.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "added")
        }
    }

    /// An object as two contexts can compare it: its permanent ID, or its title when it is new,
    /// with the values a fetch reads from the row.
    static func describe(_ object: ManagedObject) -> String {
        let id = object.objectID.isTemporaryID ? "new" : "\(object.objectID)"
        let values = ["title", "price", "published", "isAvailable", "author"].map { key in
            switch object.value(forKey: key) {
            case nil: "nil"
            case let related as ManagedObject: "\(related.objectID)"
            case let value?: "\(value)"
            }
        }
        return ([id] + values).joined(separator: " | ")
    }
}
