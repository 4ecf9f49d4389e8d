import DataStore
import Foundation
import Library
import TestSupport
import Testing

/// Random unsaved edits in a parent, then in its child, then random fetches: what the child
/// fetches and counts equals what the parent fetches and counts once the child has saved into it,
/// in order. The child judges its ancestors' changes as the parent judges its own.
///
/// 20 rounds of 20 fetches by default; `DATASTORE_CHILD_CONTEXT_ROUNDS=1000 swift test --filter
/// ChildContextRandomTests` for the full run. `DATASTORE_PREDICATE_SEED` replays a run.
@Suite struct ChildContextRandomTests {
    static let rounds = ProcessInfo.processInfo.environment["DATASTORE_CHILD_CONTEXT_ROUNDS"].flatMap(Int.init) ?? 20
    static let seed = ProcessInfo.processInfo.environment["DATASTORE_PREDICATE_SEED"].flatMap(UInt64.init) ?? .random(in: 1...UInt64.max)

    @Test(arguments: TestedEngine.available) func childFetches_equalTheParentsAfterTheChildSaves(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let rounds = engine.share(of: Self.rounds, fullCountIn: "DATASTORE_CHILD_CONTEXT_ROUNDS")
            var random = SplitMix64(seed: Self.seed)
            let objects = try RandomLibrary.populate(store, &random)
            var generator = RandomPredicate(objects: objects, random: random)
            var compared = 0
            for round in 0..<rounds {
                let parent = store.newContext()
                try Self.edit(parent, objects, &random, deletesAnyBook: true)
                let child = parent.newChildContext()
                try Self.edit(child, objects, &random, deletesAnyBook: false)
                var requests: [FetchRequest<ManagedObject>] = []
                var seen: [[ObjectID]] = []
                var counts: [Int] = []
                for _ in 0..<20 {
                    let (format, arguments) = generator.predicate(depth: 2)
                    var request = FetchRequest<ManagedObject>(entityName: "Book")
                    request.predicate = try ObjectPredicate(format: format, arguments: arguments)
                    request.sortDescriptors = generator.sortDescriptors()
                    requests.append(request)
                    // Objects, not IDs: the root's save is not part of the property, but their IDs are
                    // compared once the child has saved (an insert keeps its temporary ID).
                    seen.append(try child.fetch(request).map(\.objectID))
                    counts.append(try child.count(for: request))
                }
                try child.save()
                for (index, request) in requests.enumerated() {
                    let label = "round \(round), seed \(Self.seed): \(request.predicate.map { "\($0)" } ?? "") sorted by \(request.sortDescriptors)"
                    try #require(try parent.fetch(request).map(\.objectID) == seen[index], "\(label)")
                    try #require(try parent.count(for: request) == counts[index], "\(label): count")
                    compared += 1
                }
            }
            #expect(compared == rounds * 20)
        }
    }

    /// A few random unsaved edits: attribute values, relationships, inserts and deletes.
    ///
    /// A save applies the delete rules, which can change what other books match (a shelf's
    /// `featured`, an author's `books.@count`): the child deletes only books no other object
    /// refers to, so that its save changes nothing but what it moves.
    static func edit(_ context: ObjectContext, _ objects: RandomLibrary.Objects, _ random: inout SplitMix64, deletesAnyBook: Bool) throws {
        let strings = RandomLibrary.strings
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            // A long run can delete every book (deletes and their rules take more than inserts
            // add): the library then gets a new one.
            guard let bookID = objects.books.randomElement(using: &random) else {
                try insertBook(into: context, objects, &random)
                continue
            }
            let book = context.object(with: bookID)
            // A change to a book the parent deleted is a conflict (tested elsewhere), not a result.
            guard !book.isDeleted, context.parent?.registeredObject(for: book.objectID)?.isDeleted != true else { continue }
            switch Int.random(in: 0..<8, using: &random) {
            case 0:
                if deletesAnyBook || !isReachable(book) { context.delete(book) }
            case 1: try insertBook(into: context, objects, &random)
            case 2: try book.setValue(strings.randomElement(using: &random)!, forKey: "title")
            case 3: try book.setValue(Int16.random(in: 0...5, using: &random), forKey: "pageCount")
            case 4: try book.setValue(Bool.random(using: &random), forKey: "isAvailable")
            case 5: try book.setValue(context.object(with: objects.authors.randomElement(using: &random)!), forKey: "author")
            case 6: try book.setValue(context.object(with: objects.shelves.randomElement(using: &random)!), forKey: "shelf")
            default:
                let author = context.object(with: objects.authors.randomElement(using: &random)!)
                try author.setValue(strings.randomElement(using: &random)! + " \(Int.random(in: 0...9, using: &random))", forKey: "name")
            }
        }
    }

    /// Inserts a book or an ebook with a random title, page count and author.
    static func insertBook(into context: ObjectContext, _ objects: RandomLibrary.Objects, _ random: inout SplitMix64) throws {
        let strings = RandomLibrary.strings
        let added = try context.insertObject(entityName: ["Book", "Ebook"].randomElement(using: &random)!)
        try added.setValue(strings.randomElement(using: &random)!, forKey: "title")
        try added.setValue(Int16.random(in: 0...5, using: &random), forKey: "pageCount")
        try added.setValue(context.object(with: objects.authors.randomElement(using: &random)!), forKey: "author")
    }

    /// Whether another object refers to `book` (its chapters go with it).
    static func isReachable(_ book: ManagedObject) -> Bool {
        book.entity.relationships.contains { relationship in
            guard relationship.name != "chapters", let value = book.value(forKey: relationship.name) else { return false }
            if let many = value as? any Collection { return !many.isEmpty }
            return true
        }
    }
}
