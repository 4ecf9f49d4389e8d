import DataStore
import Foundation
import Library
import Testing

/// Each merge policy against each kind of conflict with the store, on every engine: the values
/// the store holds after the save, exactly.
@Suite struct MergePolicyTests {
    /// What the store holds of the book after both saves: title, notes, price.
    struct Stored: Equatable, CustomStringConvertible {
        var title: String, notes: String?, price: Decimal?
        var description: String { "\(title) / \(notes ?? "nil") / \(price.map { "\($0)" } ?? "nil")" }
    }

    static func stored(_ store: PersistentStore) throws -> [Stored] {
        try store.newContext().fetch(FetchRequest<Book>()).map { Stored(title: $0.title, notes: $0.notes, price: $0.price) }
    }

    /// A book read by `mine`, then changed by another context — price and title — and saved, while
    /// `mine` changes its price and notes.
    static func conflict(in store: PersistentStore, policy: MergePolicy) throws -> (ObjectContext, Book) {
        let setup = store.newContext()
        let book = Book(context: setup)
        book.title = "T"
        book.price = 1
        try setup.save()
        let mine = store.newContext()
        mine.mergePolicy = policy
        let read = try #require(try mine.fetch(FetchRequest<Book>()).first)
        let other = store.newContext()
        let theirs = try #require(try other.fetch(FetchRequest<Book>()).first)
        theirs.price = 2
        theirs.title = "B"
        try other.save()
        read.price = 3
        read.notes = "A"
        return (mine, read)
    }

    @Test(arguments: TestedEngine.available) func eachPolicy_settlesAChangedRow_propertyByPropertyOrWhole(_ engine: TestedEngine) async throws {
        for (policy, expected) in [
            (MergePolicy.mergeByPropertyObjectTrump, Stored(title: "B", notes: "A", price: 3)),
            (.mergeByPropertyStoreTrump, Stored(title: "B", notes: "A", price: 2)),
            (.overwrite, Stored(title: "T", notes: "A", price: 3)),
            (.rollback, Stored(title: "B", notes: nil, price: 2)),
        ] {
            try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
                let (mine, book) = try Self.conflict(in: store, policy: policy)
                try mine.save()
                #expect(try Self.stored(store) == [expected], "\(policy)")
                #expect(Stored(title: book.title, notes: book.notes, price: book.price) == expected, "\(policy): the object shows what was saved")
                #expect(!mine.hasChanges, "\(policy)")
                // The object is in line with its row: a later change saves without a conflict.
                mine.mergePolicy = .error
                book.notes = "later"
                try mine.save()
            }
        }
    }

    @Test(arguments: TestedEngine.available) func theErrorPolicy_failsTheSave_andWritesNothing(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let (mine, _) = try Self.conflict(in: store, policy: .error)
            #expect(throws: SaveError.self) { try mine.save() }
            #expect(try Self.stored(store) == [Stored(title: "B", notes: nil, price: 2)])
            #expect(mine.hasChanges)
        }
    }

    /// A row another writer deleted stays deleted; a deletion here deletes the row as it is now.
    @Test(arguments: TestedEngine.available) func deletions_standOnEitherSide(_ engine: TestedEngine) async throws {
        for policy in [MergePolicy.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump, .overwrite, .rollback] {
            try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
                let (mine, book) = try Self.conflict(in: store, policy: policy)
                let other = store.newContext()
                other.delete(try #require(try other.fetch(FetchRequest<Book>()).first))
                try other.save()
                let kept = Book(context: mine)
                kept.title = "new"
                try mine.save()
                #expect(try Self.stored(store).map(\.title) == ["new"], "\(policy): the deleted row stays deleted, the rest is saved")
                #expect(book.context == nil, "\(policy): the object is forgotten")
            }
            try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
                let (mine, book) = try Self.conflict(in: store, policy: policy)
                mine.delete(book)
                try mine.save()
                #expect(try Self.stored(store).isEmpty, "\(policy): the deletion stands")
            }
        }
    }

    /// A child's save into a parent that changed the same object since the child read it: the
    /// parent's values stand for the store's row.
    @Test func eachPolicy_settlesAConflictWithTheParentContext() async throws {
        for (policy, expected) in [
            (MergePolicy.mergeByPropertyObjectTrump, Stored(title: "B", notes: "A", price: 3)),
            (.mergeByPropertyStoreTrump, Stored(title: "B", notes: "A", price: 2)),
            (.overwrite, Stored(title: "T", notes: "A", price: 3)),
            (.rollback, Stored(title: "B", notes: nil, price: 2)),
        ] {
            try await TestStores.withNewStore(TestStores.library, on: .sqlite) { store throws in
                let setup = store.newContext()
                let book = Book(context: setup)
                book.title = "T"
                book.price = 1
                try setup.save()
                let parent = store.newContext()
                let child = parent.newChildContext()
                child.mergePolicy = policy
                let mine = try #require(try child.fetch(FetchRequest<Book>()).first)
                let theirs = try #require(try parent.fetch(FetchRequest<Book>()).first)
                theirs.price = 2
                theirs.title = "B"
                mine.price = 3
                mine.notes = "A"
                try child.save()
                #expect(Stored(title: theirs.title, notes: theirs.notes, price: theirs.price) == expected, "\(policy): the parent")
                #expect(Stored(title: mine.title, notes: mine.notes, price: mine.price) == expected, "\(policy): the child shows the parent's values")
                try parent.save()
                #expect(try Self.stored(store) == [expected], "\(policy): the store")
            }
        }
    }

    /// A policy settles a conflict an asynchronous save meets as a synchronous one does.
    @Test func asynchronousSaves_settleConflictsAlike() async throws {
        try await TestStores.withNewStore(TestStores.library, on: .sqlite, awaiting: { store async throws in
            let (mine, _) = try Self.conflict(in: store, policy: .mergeByPropertyObjectTrump)
            try await mine.save()
            #expect(try Self.stored(store) == [Stored(title: "B", notes: "A", price: 3)])
        })
    }
}
