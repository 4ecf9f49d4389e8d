@testable import DataStore
import Foundation
import Library
import TestSupport
import Testing

/// Random edits, saves, failed saves, rollbacks, undos, redos and merges of saves made elsewhere,
/// with every property of a small library observed: after each step, each property whose value a
/// read returns changed was notified exactly once, and every other property not at all — except a
/// relationship the step unloaded (a merge, or a rollback to a value not read yet), which is read
/// again on next use and may be notified once though the read finds the same destinations.
///
/// 300 steps by default; `DATASTORE_OBSERVATION_STEPS=20000 swift test --filter
/// ObservationRandomTests` for the full run. `DATASTORE_OBSERVATION_SEED` replays a run.
@Suite struct ObservationRandomTests {
    typealias Book = Library.Book
    typealias Author = Library.Author

    static let steps = ProcessInfo.processInfo.environment["DATASTORE_OBSERVATION_STEPS"].flatMap(Int.init) ?? 300
    static let seed = ProcessInfo.processInfo.environment["DATASTORE_OBSERVATION_SEED"].flatMap(UInt64.init) ?? .random(in: 1...UInt64.max)

    enum Step: CaseIterable {
        case title, price, author, addBook, removeBook, save, rollback, undo, redo, merge
    }

    @Test(arguments: TestedEngine.available) func everyChangedProperty_isNotifiedOnce_andNoOther(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            var random = SplitMix64(seed: Self.seed)
            let setup = store.newContext()
            let authors = (0..<3).map { index in
                let author = Author(context: setup)
                author.name = "Author \(index)"
                return author
            }
            for index in 0..<4 {
                let book = Book(context: setup)
                book.title = "Title \(index)"
                book.author = authors[index % 3]
            }
            try setup.save()

            let context = store.newContext()
            context.undoManager = DataStore.UndoManager()
            let books = try context.fetch(FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor(Book.title)]))
            let people = try context.fetch(FetchRequest<Author>(predicate: nil, sortDescriptors: [ObjectSortDescriptor(Author.name)]))
            let saves = ChangeSetCollector()
            store.addObserver { saves.append($0) }
            let observed = books.flatMap { book in ["title", "price", "author"].map { ObservedProperty(book, $0) } }
                + people.flatMap { author in ["name", "books"].map { ObservedProperty(author, $0) } }

            var before = observed.map(Self.read)
            var counts = observed.map(\.changes)
            for index in 0..<Self.steps {
                let step = Step.allCases.randomElement(using: &random)!
                let book = books.randomElement(using: &random)!, author = people.randomElement(using: &random)!
                switch step {
                case .title: book.title = ["A", "B", "C"].randomElement(using: &random)!
                case .price: book.price = [nil, 1, 2].randomElement(using: &random)!
                case .author: book.author = Bool.random(using: &random) ? author : nil
                case .addBook: author.addToBooks(book)
                case .removeBook: author.removeFromBooks(book)
                case .save: try? context.save()  // a conflict with a merged save fails, changing nothing
                case .rollback: context.rollback()
                case .undo: context.undo()
                case .redo: context.redo()
                case .merge:
                    let other = store.newContext()
                    let copy = try #require(other.object(with: book.objectID) as? Book)
                    // A title other than the stored one, so that there is a save to merge.
                    copy.title = ["A", "B", "C"].filter { $0 != copy.title }.randomElement(using: &random)!
                    if Bool.random(using: &random) {
                        copy.author = Bool.random(using: &random) ? other.object(with: author.objectID) as? Author : nil
                    }
                    // The model keeps (title, author) unique: a save that would repeat a pair fails.
                    let saved = saves.all.count
                    try? other.save()
                    if saves.all.count > saved { context.mergeChanges(from: try #require(saves.all.last)) }
                }
                context.processPendingChanges()
                let unloaded = observed.map(Self.isUnloadedRelationship)
                let after = observed.map(Self.read)
                let now = observed.map(\.changes)
                for (position, property) in observed.enumerated() {
                    let notified = now[position] - counts[position]
                    let changed = before[position] != after[position]
                    #expect(changed ? notified == 1 : notified == 0 || (unloaded[position] && notified == 1),
                            "seed \(Self.seed), step \(index) (\(step)): \(property.name) went from \(before[position]) to \(after[position]), notified \(notified) times")
                }
                before = after
                counts = now
            }
        }
    }

    /// Whether the property is a relationship whose destinations are not loaded: the next read
    /// loads them.
    static func isUnloadedRelationship(_ property: ObservedProperty) -> Bool {
        guard let relationship = property.object.entity.relationship(named: property.name) else { return false }
        // A fault has none loaded.
        guard relationship.slot < property.object.relationshipValues.count else { return true }
        if case .unloaded = property.object.relationshipValues[relationship.slot] { return true }
        return false
    }

    /// What a read of the property returns, as text to compare.
    static func read(_ property: ObservedProperty) -> String {
        switch property.object.value(forKey: property.name) {
        case let objects as Set<ManagedObject>: objects.map { "\($0.objectID)" }.sorted().joined(separator: ",")
        case let object as ManagedObject: "\(object.objectID)"
        case let value?: "\(value)"
        case nil: "nil"
        }
    }
}
