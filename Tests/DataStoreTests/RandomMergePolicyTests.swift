import DataStore
import Foundation
import Library
import Testing
import TestSupport

/// Random edits under random merge policies, against a model of each policy: every round either
/// changes one book from two writers (two stores on one file or database, as two processes have)
/// and saves this side under the policy, or inserts books whose isbn clashes with a stored one or
/// with each other. The store must then hold exactly the values the model computes, property by
/// property, and the saving context must show them.
///
/// 1,000 rounds on each engine, the full count, which takes seconds; `DATASTORE_MERGE_ROUNDS`
/// sets another count and `DATASTORE_MERGE_SEED` replays a run.
@Suite struct RandomMergePolicyTests {
    static let rounds = ProcessInfo.processInfo.environment["DATASTORE_MERGE_ROUNDS"].flatMap(Int.init) ?? 1_000
    static let seed = ProcessInfo.processInfo.environment["DATASTORE_MERGE_SEED"].flatMap(UInt64.init) ?? .random(in: 1...UInt64.max)
    static let policies: [MergePolicy] = [.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump, .overwrite, .rollback]

    /// The three properties the rounds edit: a required title, optional notes and weight.
    struct Values: Equatable, CustomStringConvertible {
        var title: String, notes: String?, weight: Double?
        var description: String { "\(title) / \(notes ?? "nil") / \(weight.map { "\($0)" } ?? "nil")" }

        init(_ title: String, _ notes: String?, _ weight: Double?) {
            (self.title, self.notes, self.weight) = (title, notes, weight)
        }

        init(_ book: Book) { self.init(book.title, book.notes, book.weight) }

        func write(to book: Book) { (book.title, book.notes, book.weight) = (title, notes, weight) }

        /// Each property by `pick` of this value and `other`'s (`true` takes `other`'s).
        func merged(with other: Values, _ pick: (_ mine: Any?, _ theirs: Any?) -> Bool) -> Values {
            Values(pick(title, other.title) ? other.title : title, pick(notes, other.notes) ? other.notes : notes,
                   pick(weight, other.weight) ? other.weight : weight)
        }
    }

    static func random(_ random: inout SplitMix64, round: Int) -> Values {
        Values("T\(Int.random(in: 0...3, using: &random))",
               Bool.random(using: &random) ? nil : "N\(Int.random(in: 0...3, using: &random))",
               Bool.random(using: &random) ? nil : Double(Int.random(in: 0...3, using: &random)) / 2)
    }

    /// `values` with each property replaced, at random, by `other`'s.
    static func edited(_ values: Values, toward other: Values, _ random: inout SplitMix64) -> Values {
        Values(Bool.random(using: &random) ? other.title : values.title, Bool.random(using: &random) ? other.notes : values.notes,
               Bool.random(using: &random) ? other.weight : values.weight)
    }

    static func isbn(_ round: Int) -> String { String(format: "0-%08d-X", round) }

    @Test(arguments: TestedEngine.available) func randomEditsAndClashes_endAsThePolicySays(_ engine: TestedEngine) async throws {
        let rounds = Self.rounds
        var random = SplitMix64(seed: Self.seed)
        try await TestStores.withNewStores(TestStores.library, on: engine, history: .automatic) { store, otherProcess throws in
            for round in 0..<rounds {
                let policy = Self.policies.randomElement(using: &random)!
                let label = "round \(round) (\(policy)), seed \(Self.seed)"
                if Bool.random(using: &random) {
                    try Self.conflictRound(round, policy, store, otherProcess, &random, label)
                } else {
                    try Self.clashRound(round, policy, store, &random, label)
                }
            }
        }
    }

    /// One book changed by the other process, then by this context under `policy`.
    static func conflictRound(
        _ round: Int, _ policy: MergePolicy, _ store: PersistentStore, _ otherProcess: PersistentStore, _ random: inout SplitMix64, _ label: String
    ) throws {
        let isbn = isbn(round)
        let setup = store.newContext()
        let original = Self.random(&random, round: round)
        let book = Book(context: setup)
        book.isbn = isbn
        original.write(to: book)
        try setup.save()

        let mine = store.newContext()
        mine.mergePolicy = policy
        let read = try #require(try mine.fetch(FetchRequest<Book>(predicate: try ObjectPredicate(format: "isbn == %@", isbn))).first)
        let theirs = edited(original, toward: Self.random(&random, round: round), &random)
        let other = otherProcess.newContext()
        let theirBook = try #require(try other.fetch(FetchRequest<Book>(predicate: try ObjectPredicate(format: "isbn == %@", isbn))).first)
        theirs.write(to: theirBook)
        try other.save()
        let edit = edited(original, toward: Self.random(&random, round: round), &random)
        edit.write(to: read)
        try mine.save()

        // The model: which side's value each property ends with.
        let expected: Values
        if theirs == original {
            expected = edit  // no conflict: this save wrote its changes
        } else if edit == original {
            expected = theirs  // nothing to save here
        } else {
            switch policy {
            case .mergeByPropertyObjectTrump:
                // This context's changes win; the rest is the store's.
                expected = original.mergedByProperty(mine: edit, theirs: theirs, original: original) { mineChanged, _ in mineChanged }
            case .mergeByPropertyStoreTrump:
                // The store's changes win; this context's changes to the rest are saved.
                expected = original.mergedByProperty(mine: edit, theirs: theirs, original: original) { mineChanged, theirsChanged in
                    mineChanged && !theirsChanged
                }
            case .overwrite:
                expected = edit
            case .rollback, .error, .custom:
                expected = theirs
            }
        }
        let stored = try #require(try store.newContext().fetch(FetchRequest<Book>(predicate: try ObjectPredicate(format: "isbn == %@", isbn))).first)
        #expect(Values(stored) == expected, "\(label): original \(original), theirs \(theirs), mine \(edit)")
        // A context with nothing to save does not read the other writer's change.
        #expect(Values(read) == (edit == original ? edit : expected), "\(label): the saving context shows what was saved")
        #expect(!mine.hasChanges, "\(label)")
    }

    /// Books inserted under `policy` whose isbn clashes with a stored book (sometimes) and with
    /// each other (sometimes).
    static func clashRound(_ round: Int, _ policy: MergePolicy, _ store: PersistentStore, _ random: inout SplitMix64, _ label: String) throws {
        let isbn = isbn(round)
        var survivor: Values?
        if Bool.random(using: &random) {
            let setup = store.newContext()
            let stored = Self.random(&random, round: round)
            let book = Book(context: setup)
            book.isbn = isbn
            stored.write(to: book)
            try setup.save()
            survivor = stored
        }
        let context = store.newContext()
        context.mergePolicy = policy
        var inserted: [Values] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let values = Self.random(&random, round: round)
            let book = Book(context: context)
            book.isbn = isbn
            values.write(to: book)
            inserted.append(values)
        }
        try context.save()

        // The model: the stored book, else the first inserted, survives; each later one merges in.
        for later in inserted {
            guard let kept = survivor else {
                survivor = later
                continue
            }
            survivor = switch policy {
            case .mergeByPropertyObjectTrump: kept.merged(with: later) { _, theirs in theirs != nil }
            case .mergeByPropertyStoreTrump: kept.merged(with: later) { mine, _ in mine == nil }
            case .overwrite: later
            case .rollback, .error, .custom: kept
            }
        }
        let books = try store.newContext().fetch(FetchRequest<Book>(predicate: try ObjectPredicate(format: "isbn == %@", isbn)))
        #expect(books.count == 1, "\(label)")
        #expect(books.first.map(Values.init) == survivor, "\(label): stored before \(survivor.map { "\($0)" } ?? "none"), inserted \(inserted)")
        #expect(!context.hasChanges, "\(label)")
    }
}

extension RandomMergePolicyTests.Values {
    /// Each property: this context's edit where `takesMine(mineChanged, theirsChanged)`, else the
    /// other writer's value.
    func mergedByProperty(mine: Self, theirs: Self, original: Self, _ takesMine: (Bool, Bool) -> Bool) -> Self {
        func choose<T: Equatable>(_ mine: T, _ theirs: T, _ original: T) -> T {
            takesMine(mine != original, theirs != original) ? mine : theirs
        }
        return Self(choose(mine.title, theirs.title, original.title), choose(mine.notes, theirs.notes, original.notes),
                    choose(mine.weight, theirs.weight, original.weight))
    }
}
