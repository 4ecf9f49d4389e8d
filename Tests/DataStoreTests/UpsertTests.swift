import DataStore
import Foundation
import Library
import Testing

/// Uniqueness-constraint clashes settled by each merge policy, on every engine: an inserted book
/// whose `isbn` another book has — stored, or inserted in the same save — is merged into it, and
/// the store holds one book with exactly the values the policy keeps.
@Suite struct UpsertTests {
    /// What the store holds of a book: title, notes, weight and its chapters' titles.
    struct Stored: Equatable, CustomStringConvertible {
        var title: String, notes: String?, weight: Double?, chapters: [String]
        var description: String { "\(title) / \(notes ?? "nil") / \(weight.map { "\($0)" } ?? "nil") / \(chapters)" }

        init(_ title: String, _ notes: String?, _ weight: Double?, _ chapters: [String]) {
            (self.title, self.notes, self.weight, self.chapters) = (title, notes, weight, chapters)
        }

        init(_ book: Book) {
            self.init(book.title, book.notes, book.weight, book.chapters.map { $0.title ?? "?" })
        }
    }

    static func books(isbn: String, in context: ObjectContext) throws -> [Book] {
        try context.fetch(FetchRequest<Book>(predicate: try ObjectPredicate(format: "isbn == %@", isbn)))
    }

    static func chapter(_ title: String, in context: ObjectContext) -> Chapter {
        let chapter = Chapter(context: context)
        chapter.title = title
        return chapter
    }

    /// More clashing keys than one query reads stored objects for (5,000): every batch finds its own.
    @Test(arguments: TestedEngine.available) func clashesBeyondOneQuerysKeys_areAllFound(_ engine: TestedEngine) async throws {
        let count = 6_001
        func isbn(_ index: Int) -> String { String(format: "0-%08d-X", index) }
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let setup = store.newContext()
            for index in stride(from: 0, to: count, by: 2) {
                let book = Book(context: setup)
                (book.isbn, book.title) = (isbn(index), "stored")
            }
            try setup.save()

            let feed = store.newContext()
            feed.mergePolicy = .mergeByPropertyObjectTrump
            for index in 0..<count {
                let book = Book(context: feed)
                (book.isbn, book.title) = (isbn(index), "feed")
            }
            try feed.save()

            let reader = store.newContext()
            #expect(try reader.count(for: FetchRequest<Book>()) == count)
            #expect(try reader.count(for: FetchRequest<Book>(predicate: try ObjectPredicate(format: "title == 'feed'"))) == count)
        }
    }

    @Test(arguments: TestedEngine.available) func eachPolicy_mergesAnInsertedObjectIntoTheStoredOne(_ engine: TestedEngine) async throws {
        for (policy, expected) in [
            (MergePolicy.mergeByPropertyObjectTrump, Stored("Feed", "stored notes", 2.5, ["One", "Two"])),
            (.mergeByPropertyStoreTrump, Stored("Stored", "stored notes", 2.5, ["One", "Two"])),
            (.overwrite, Stored("Feed", nil, 2.5, ["One", "Two"])),
            (.rollback, Stored("Stored", "stored notes", nil, ["One", "Two"])),
        ] {
            try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
                let setup = store.newContext()
                let stored = Book(context: setup)
                (stored.isbn, stored.title, stored.notes) = ("0-00000001-X", "Stored", "stored notes")
                stored.chapters = [Self.chapter("One", in: setup)]
                try setup.save()

                let feed = store.newContext()
                feed.mergePolicy = policy
                let incoming = Book(context: feed)
                (incoming.isbn, incoming.title, incoming.weight) = ("0-00000001-X", "Feed", 2.5)
                incoming.chapters = [Self.chapter("Two", in: feed)]
                try feed.save()

                let reader = store.newContext()
                let books = try Self.books(isbn: "0-00000001-X", in: reader)
                try #require(books.count == 1, "\(policy): one book for the isbn")
                #expect(Stored(books[0]) == expected, "\(policy)")
                #expect(books[0].objectID == stored.objectID, "\(policy): the stored book keeps its identity")
                #expect(incoming.context == nil && !feed.hasChanges, "\(policy): the inserted book is merged and forgotten")
                // What pointed at the inserted book points at the stored one, whatever the policy.
                let chapters = try reader.fetch(FetchRequest<Chapter>(predicate: try ObjectPredicate(format: "title == 'Two'")))
                #expect(chapters.first?.book?.objectID == stored.objectID, "\(policy)")
            }
        }
    }

    @Test(arguments: TestedEngine.available) func objectsInsertedInOneSave_mergeIntoTheFirst(_ engine: TestedEngine) async throws {
        for (policy, expected) in [
            (MergePolicy.mergeByPropertyObjectTrump, Stored("B", "a", 2.0, [])),
            (.mergeByPropertyStoreTrump, Stored("A", "a", 1.0, [])),
            (.overwrite, Stored("B", nil, 2.0, [])),
            (.rollback, Stored("A", "a", 1.0, [])),
        ] {
            try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
                let context = store.newContext()
                context.mergePolicy = policy
                let first = Book(context: context), second = Book(context: context)
                (first.isbn, first.title, first.notes, first.weight) = ("0-00000002-X", "A", "a", 1)
                (second.isbn, second.title, second.weight) = ("0-00000002-X", "B", 2)
                try context.save()
                let books = try Self.books(isbn: "0-00000002-X", in: store.newContext())
                try #require(books.count == 1, "\(policy)")
                #expect(Stored(books[0]) == expected, "\(policy)")
                #expect(Stored(first) == expected && second.context == nil, "\(policy): the first is the one kept")
            }
        }
    }

    /// A constraint of an attribute and a to-one (`title`, `author`): books of one title by one
    /// author merge; by different authors, or without an author, they do not.
    @Test(arguments: TestedEngine.available) func constraintsWithAToOne_clashOnlyForTheSameDestination(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let setup = store.newContext()
            let austen = Author(context: setup), shelley = Author(context: setup)
            (austen.name, shelley.name) = ("Austen", "Shelley")
            let emma = Book(context: setup)
            (emma.title, emma.author, emma.isbn) = ("Emma", austen, "0-00000011-X")
            try setup.save()

            let context = store.newContext()
            context.mergePolicy = .mergeByPropertyObjectTrump
            let authors = try context.fetch(FetchRequest<Author>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("name")]))
            for (author, isbn) in [(authors[0], "0-00000012-X"), (authors[1], "0-00000021-X"), (nil, "0-00000031-X"), (nil, "0-00000032-X")] {
                let book = Book(context: context)
                (book.title, book.author, book.isbn) = ("Emma", author, isbn)
            }
            try context.save()
            let reader = store.newContext()
            let books = try reader.fetch(FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("isbn")]))
            #expect(books.map { "\($0.isbn ?? "-") \($0.author?.name ?? "-")" } == ["0-00000012-X Austen", "0-00000021-X Shelley", "0-00000031-X -", "0-00000032-X -"])
            #expect(books[0].objectID == emma.objectID, "Austen's Emma kept its row and took the new isbn")
        }
    }

    /// A batch insert upserts by the executing context's policy: rows that clash with a stored
    /// object, or with a row inserted earlier in the same request, merge into it.
    @Test(arguments: TestedEngine.available) func batchInsert_mergesClashingRows_byTheContextsPolicy(_ engine: TestedEngine) async throws {
        for (policy, expected) in [
            (MergePolicy.mergeByPropertyObjectTrump, ["Feed / stored notes / 2.5", "New / nil / 1.0"]),
            (.mergeByPropertyStoreTrump, ["Stored / stored notes / 2.5", "New / nil / 1.0"]),
            (.overwrite, ["Feed / nil / 2.5", "New / nil / 1.0"]),
            (.rollback, ["Stored / stored notes / nil", "New / nil / 1.0"]),
        ] {
            try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
                let setup = store.newContext()
                let stored = Book(context: setup)
                (stored.isbn, stored.title, stored.notes) = ("0-00000001-X", "Stored", "stored notes")
                try setup.save()

                let feed = store.newContext()
                feed.mergePolicy = policy
                let rows: [(isbn: String, title: String, weight: Double)] = [
                    ("0-00000001-X", "Feed", 2.5), ("0-00000005-X", "New", 1), ("0-00000005-X", "Again", 3),
                ]
                let result = try feed.execute(BatchInsertRequest<Book>(count: rows.count) { book, index in
                    (book.isbn, book.title, book.weight) = (rows[index].isbn, rows[index].title, rows[index].weight)
                })
                let books = try store.newContext().fetch(FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("isbn")]))
                let described = books.map { "\($0.title) / \($0.notes ?? "nil") / \($0.weight.map { "\($0)" } ?? "nil")" }
                // The third row merges into the second; under object trump and overwrite it wins.
                let second = policy == .mergeByPropertyObjectTrump || policy == .overwrite ? "Again / nil / 3.0" : "New / nil / 1.0"
                #expect(described == [expected[0], second], "\(policy)")
                #expect(books[0].objectID == stored.objectID, "\(policy)")
                #expect(Set(result.objectIDs) == Set(books.map(\.objectID)) || policy == .rollback, "\(policy): the objects the rows went into")
                #expect(result.objectIDs.count == Set(result.objectIDs).count, "\(policy): each once")
            }
        }
    }

    /// Keeps the highest weight of the clashing books, and lets its base merge the rest.
    final class KeepHeaviest: CustomMergePolicy, @unchecked Sendable {
        override func resolve(constraintConflicts conflicts: [ConstraintConflict], in context: ObjectContext) throws {
            for conflict in conflicts {
                let heaviest = conflict.allObjects.compactMap { ($0 as? Book)?.weight }.max()
                try super.resolve(constraintConflicts: [conflict], in: context)
                (conflict.survivor as? Book)?.weight = heaviest
            }
        }
    }

    /// Adds this context's change of `pageCount` to the store's, as a counter merges; the rest by its base.
    final class AddPageCounts: CustomMergePolicy, @unchecked Sendable {
        override func resolve(optimisticLockingConflicts conflicts: [SaveError.Conflict], in context: ObjectContext) throws {
            let books = conflicts.compactMap { context.registeredObject(for: $0.objectID) as? Book }
            let added = books.map { Int64($0.pageCount) - ($0.committedValues(forKeys: ["pageCount"])["pageCount"] as? Int64 ?? 0) }
            try super.resolve(optimisticLockingConflicts: conflicts, in: context)
            for (book, added) in zip(books, added) {
                book.pageCount = Int16((book.committedValues(forKeys: ["pageCount"])["pageCount"] as? Int64 ?? 0) + added)
            }
        }
    }

    struct Refusal: Error {}

    final class Refuses: CustomMergePolicy, @unchecked Sendable {
        override func resolve(constraintConflicts conflicts: [ConstraintConflict], in context: ObjectContext) throws { throw Refusal() }
    }

    @Test(arguments: TestedEngine.available) func customPolicies_settleWhatTheyOverride_andTheirBaseTheRest(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let setup = store.newContext()
            let stored = Book(context: setup)
            (stored.isbn, stored.title, stored.weight, stored.pageCount) = ("0-00000007-X", "Stored", 3, 10)
            try setup.save()

            let feed = store.newContext()
            feed.mergePolicy = .custom(KeepHeaviest(base: .mergeByPropertyObjectTrump))
            for (title, weight) in [("Light", 1.0), ("Heavy", 5.0), ("Middle", 2.0)] {
                let book = Book(context: feed)
                (book.isbn, book.title, book.weight) = ("0-00000007-X", title, weight)
            }
            try feed.save()
            var books = try Self.books(isbn: "0-00000007-X", in: store.newContext())
            #expect(books.map { "\($0.title) \($0.weight ?? 0)" } == ["Middle 5.0"], "the base merged the titles, the policy kept the weight")

            // A counter: both sides' increments count.
            let mine = store.newContext()
            mine.mergePolicy = .custom(AddPageCounts(base: .mergeByPropertyObjectTrump))
            let read = try #require(try Self.books(isbn: "0-00000007-X", in: mine).first)
            let other = store.newContext()
            try #require(try Self.books(isbn: "0-00000007-X", in: other).first).pageCount += 5
            try other.save()
            read.pageCount += 2
            try mine.save()
            books = try Self.books(isbn: "0-00000007-X", in: store.newContext())
            // The upsert wrote the inserted books' page count, 0 (a value, not nil); then 5 and 2 were added.
            #expect(books.first?.pageCount == 7)

            let refusing = store.newContext()
            refusing.mergePolicy = .custom(Refuses(base: .overwrite))
            let clash = Book(context: refusing)
            (clash.isbn, clash.title) = ("0-00000007-X", "Refused")
            #expect(throws: SaveError.mergePolicyFailed(message: "\(Refusal())")) { try refusing.save() }
            #expect(try Self.books(isbn: "0-00000007-X", in: store.newContext()).map(\.title) == ["Middle"])
        }
    }

    /// A constraint holds across the hierarchy, as its unique index holds across the table: an
    /// audiobook clashes with a book of the same isbn, stored or inserted.
    @Test(arguments: TestedEngine.available) func subentities_clashWithTheirParentEntitysObjects(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let setup = store.newContext()
            let stored = Book(context: setup)
            (stored.isbn, stored.title) = ("0-00000008-X", "Stored book")
            try setup.save()

            let context = store.newContext()
            context.mergePolicy = .mergeByPropertyObjectTrump
            let audiobook = Audiobook(context: context)
            (audiobook.isbn, audiobook.title) = ("0-00000008-X", "Audiobook")
            let first = Audiobook(context: context), second = Book(context: context)
            (first.isbn, first.title, second.isbn, second.title) = ("0-00000009-X", "First", "0-00000009-X", "Second")
            try context.save()
            let reader = store.newContext()
            let eight = try Self.books(isbn: "0-00000008-X", in: reader)
            #expect(eight.map(\.title) == ["Audiobook"] && eight.first?.objectID == stored.objectID, "merged into the stored book")
            let nine = try Self.books(isbn: "0-00000009-X", in: reader)
            #expect(nine.map(\.title) == ["Second"] && nine.first is Audiobook, "the first inserted, an audiobook, kept")
        }
    }

    /// A custom policy whose base is `error` settles only what it overrides: a clash it leaves
    /// fails the save, and nothing is merged.
    @Test func customPolicyOnError_leavesClashesToFail() throws {
        final class LockingOnly: CustomMergePolicy, @unchecked Sendable {
            override func resolve(optimisticLockingConflicts conflicts: [SaveError.Conflict], in context: ObjectContext) throws {
                try super.resolve(optimisticLockingConflicts: conflicts, in: context)
            }
        }
        let store = try TestStores.newStore(TestStores.library)
        let setup = store.newContext()
        let stored = Book(context: setup)
        (stored.isbn, stored.title) = ("0-00000010-X", "Stored")
        try setup.save()
        let context = store.newContext()
        context.mergePolicy = .custom(LockingOnly(base: .error))
        let incoming = Book(context: context)
        (incoming.isbn, incoming.title) = ("0-00000010-X", "Feed")
        #expect(throws: SaveError.validation([.uniquenessViolated(incoming.objectID, constraint: ["isbn"], conflictingObject: stored.objectID)])) {
            try context.save()
        }
        #expect(incoming.isInserted && incoming.context === context)
    }

    @Test(arguments: TestedEngine.available) func errorPolicy_reportsTheClash_andWritesNothing(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let setup = store.newContext()
            let stored = Book(context: setup)
            (stored.isbn, stored.title) = ("0-00000003-X", "Stored")
            try setup.save()
            let context = store.newContext()
            let incoming = Book(context: context)
            (incoming.isbn, incoming.title) = ("0-00000003-X", "Feed")
            #expect(throws: SaveError.validation([.uniquenessViolated(incoming.objectID, constraint: ["isbn"], conflictingObject: stored.objectID)])) {
                try context.save()
            }
            #expect(try Self.books(isbn: "0-00000003-X", in: store.newContext()).map(\.title) == ["Stored"])
            #expect(incoming.isInserted)
        }
    }
}
