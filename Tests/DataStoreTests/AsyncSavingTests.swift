import DataStore
import Foundation
import GRDB
import Library
import TestSupport
import Testing

/// The asynchronous save writes what the synchronous save writes, and keeps as unsaved changes
/// what changes while it waits.
///
/// 30 rounds by default; `DATASTORE_ASYNC_SAVE_ROUNDS=2000 swift test --filter AsyncSavingTests`
/// for the full run (`DATASTORE_ASYNC_SEED` replays one).
@Suite struct AsyncSavingTests {
    static let rounds = ProcessInfo.processInfo.environment["DATASTORE_ASYNC_SAVE_ROUNDS"].flatMap(Int.init) ?? 30
    static let seed = ProcessInfo.processInfo.environment["DATASTORE_ASYNC_SEED"].flatMap(UInt64.init) ?? .random(in: 1...UInt64.max)

    /// Two stores filled alike; each round makes the same random edits in a context of each, then
    /// saves one synchronously and the other asynchronously while more random edits are made on its
    /// actor — edits the other context makes right after its save, ending now and then with
    /// refreshes, an undo, a rollback or a reset. Both stores then hold the same rows, both
    /// contexts the same unsaved changes, and the next saves leave them equal again.
    @Test func randomSaves_writeWhatTheSynchronousSaveWrites_andKeepEditsMadeWhileWaiting() async throws {
        var random = SplitMix64(seed: Self.seed)
        var populating = random
        let synchronousStore = try TestStores.newStore(TestStores.library)
        let synchronousObjects = try RandomLibrary.populate(synchronousStore, &random)
        let asynchronousStore = try TestStores.newStore(TestStores.library)
        let asynchronousObjects = try RandomLibrary.populate(asynchronousStore, &populating)
        let synchronous = synchronousStore.newContext()
        synchronous.undoManager = UndoManager()
        let saver = AsyncSaver(asynchronousStore)
        var editedWhileWaiting = 0, savedRounds = 0
        for round in 0..<Self.rounds {
            let label = "round \(round), seed \(Self.seed)"
            // The synchronous side: edits, a save, then the edits the other side makes while it saves.
            let firstEdits = random
            try ChildContextRandomTests.edit(synchronous, try Self.alive(synchronous, synchronousObjects), &random, deletesAnyBook: true)
            let waiting = try Self.alive(synchronous, synchronousObjects, excludingDeleted: true)
            let saveError = Self.saveSynchronously(synchronous)
            let laterEdits = random
            try Self.editAndFinish(synchronous, waiting, &random)

            let savedAsynchronously = try await saver.editSaveAndEdit(asynchronousObjects, first: firstEdits, then: laterEdits)
            try #require(savedAsynchronously.saveError == saveError, "\(label)")
            if savedAsynchronously.editedWhileWaiting { editedWhileWaiting += 1 }
            if saveError == nil { savedRounds += 1 }
            let (rowsA, rowsS) = (try Self.rows(of: asynchronousStore), try Self.rows(of: synchronousStore)); try #require(rowsA == rowsS, "\(label): rows after the save \(rowsA.filter { !rowsS.contains($0) }) vs \(rowsS.filter { !rowsA.contains($0) })")
            let (pendingA, pendingS) = (await saver.unsavedChanges(), Self.unsavedChanges(synchronous)); try #require(pendingA == pendingS, "\(label): unsaved changes \(pendingA.filter { !pendingS.contains($0) }) vs \(pendingS.filter { !pendingA.contains($0) })")

            // The edits made while the save waited are saved by the next save, as edits made after it.
            let nextError = Self.saveSynchronously(synchronous)
            let nextAsyncError = await saver.save(); try #require(nextAsyncError == nextError, "\(label): next save \(String(describing: nextAsyncError)) vs \(String(describing: nextError))")
            let (nextA, nextS) = (try Self.rows(of: asynchronousStore), try Self.rows(of: synchronousStore)); try #require(nextA == nextS, "\(label): rows after the next save \(nextA.filter { !nextS.contains($0) }) vs \(nextS.filter { !nextA.contains($0) })")
            try #require(!synchronous.hasChanges)
            let leftAsync = await saver.unsavedChanges(), leftSync = Self.unsavedChanges(synchronous); try #require(leftAsync == leftSync, "\(label): changes left \(leftAsync) vs \(leftSync)")
        }
        // Saves that fail write nothing and wait for nothing; of the others, nearly all must
        // have had edits made while they waited, or the comparison leaves that path out.
        #expect(savedRounds > Self.rounds / 3, "only \(savedRounds) of \(Self.rounds) saves succeeded")
        #expect(editedWhileWaiting > savedRounds * 3 / 4, "only \(editedWhileWaiting) of \(savedRounds) saves had edits made while they waited")
    }

    /// Random edits, then now and then what rewrites objects wholesale — refreshes, an undo, a
    /// rollback, a reset — which an asynchronous save that waits defers until it ends.
    static func editAndFinish(_ context: ObjectContext, _ objects: RandomLibrary.Objects, _ random: inout SplitMix64) throws {
        try ChildContextRandomTests.edit(context, objects, &random, deletesAnyBook: true)
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            guard let book = objects.books.randomElement(using: &random) else { break }
            context.refresh(context.object(with: book), mergeChanges: Bool.random(using: &random))
        }
        switch Int.random(in: 0..<12, using: &random) {
        case 0: context.undo()
        case 1: context.rollback()
        case 2: context.reset()
        default: break
        }
    }

    /// Saves with the synchronous form; on error, rolls back and describes the error.
    static func saveSynchronously(_ context: ObjectContext) -> String? {
        do {
            try context.save()
            return nil
        } catch {
            context.rollback()
            return describe(error, in: context)
        }
    }

    /// The error's description, the same for the same error in any store, whatever temporary
    /// keys the context used before; its failures in order of description, as the context's
    /// changed objects are a set. Of objects that want the same unique values, the one written
    /// first gets them, and the others are reported: the order of that set decides which, so
    /// uniqueness failures are compared as such.
    static func describe(_ error: any Error, in context: ObjectContext) -> String {
        if case SaveError.validation(let failures) = error, failures.allSatisfy({
            if case .uniquenessViolated = $0 { true } else { false }
        }) {
            return "uniqueness violated"
        }
        return "\(error)".replacingOccurrences(of: context.store.identifier, with: "store").replacing(/\/t[0-9]+:/, with: "/t:")
            .split(separator: "\n").sorted().joined(separator: "\n")
    }

    /// `objects` with the books the store holds now, in key order — those the context deleted and
    /// has not saved left out when `excludingDeleted`. A store left with few books gets ten more.
    static func alive(_ context: ObjectContext, _ objects: RandomLibrary.Objects, excludingDeleted: Bool = false) throws -> RandomLibrary.Objects {
        let reader = context.store.newContext()
        var stored = try reader.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: "Book"))
        if stored.count < 10 {
            for index in 0..<10 { try reader.insertObject(entityName: "Book").setValue("added \(index)", forKey: "title") }
            try reader.save()
            stored = try reader.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: "Book"))
        }
        var alive = objects
        alive.books = stored.sorted { $0.primaryKey ?? 0 < $1.primaryKey ?? 0 }.filter { !(excludingDeleted && context.object(with: $0).isDeleted) }
        return alive
    }

    /// Every row of every table but the store's metadata and the history's transaction times.
    static func rows(of store: PersistentStore) throws -> [String] {
        let database = try DatabaseQueue(path: store.url!.path)
        defer { try? database.close() }
        return try database.read { db in
            var lines: [String] = []
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('Z_METADATA', 'ATRANSACTION') ORDER BY name") {
                lines += try Row.fetchAll(db, sql: "SELECT * FROM \(table)").map { "\(table): \($0)" }.sorted()
            }
            return lines
        }
    }

    /// The context's unsaved changes, described alike in any store: objects changed and changed
    /// back are left out, as a save leaves them out.
    static func unsavedChanges(_ context: ObjectContext) -> [String] {
        func describe(_ object: ManagedObject) -> String {
            let key = object.objectID.isTemporaryID ? "new" : "\(object.objectID.primaryKey ?? 0)"
            let values = object.entity.attributes.map { "\($0.name)=\(String(describing: object.value(forKey: $0.name)))" }
            let destinations = object.entity.relationships.map { relationship -> String in
                let value = object.value(forKey: relationship.name)
                let keys = ((value as? [ManagedObject]) ?? (value as? ManagedObject).map { [$0] } ?? []).map {
                    $0.objectID.isTemporaryID ? "new" : "\($0.objectID.primaryKey ?? 0)"
                }
                return "\(relationship.name)=\(keys)"
            }
            return "\(object.entity.name) \(key) \(values) \(destinations)"
        }
        return ["inserted"] + context.insertedObjects.map(describe) + ["updated"] + context.updatedObjects.filter(\.hasPersistentChangedValues).map(describe).sorted()
            + ["deleted"] + context.deletedObjects.map(describe).sorted()
    }

    /// A synchronous save or read while an asynchronous save writes would see its rows before the
    /// context does — or its child: they throw `saveInProgress`; asynchronous ones wait for it.
    @Test func synchronousWorkDuringAnAsynchronousSave_throws_andAsynchronousWorkWaits() async throws {
        let results = try await AsyncSaver(try TestStores.newStore(TestStores.library)).workWhileSaving()
        #expect(results.synchronousSave == .saveInProgress)
        #expect(results.synchronousFetch == .saveInProgress)
        #expect(results.synchronousFetchInChild == .saveInProgress)
        #expect(results.asynchronousFetch == 101)
        #expect(results.asynchronousFetchInChild == 101)
        #expect(results.secondSaveSaw == 101)
    }

    /// An undo called while a save waits takes the step it would take at the call, once the save
    /// ends; an edit made after the call stays. A child's synchronous save throws meanwhile.
    @Test func undoWhileASaveWaits_takesTheStepOfTheCall_whenTheSaveEnds() async throws {
        let result = try await AsyncSaver(try TestStores.newStore(TestStores.library)).undoWhileSaving()
        #expect(result.title == "First" && result.pageCount == 7)
        #expect(result.storedTitle == "Second")
        #expect(result.childSave == .saveInProgress)
    }

    /// A results controller whose list depends on a related object changed while a save waits
    /// (sorted by the author's name) cannot read the store then: it looks again once the save ends.
    @Test func resultsController_followsChangesMadeWhileASaveWaits() async throws {
        let titles = try await AsyncSaver(try TestStores.newStore(TestStores.library)).listAfterRenamingWhileSaving()
        #expect(titles.before == ["by Austen", "by Brontë"])
        #expect(titles.after == ["by Brontë", "by Austen"])
    }

    /// A failed asynchronous save writes nothing and leaves every change in the context.
    @Test func failedAsynchronousSave_writesNothing_andKeepsTheChanges() async throws {
        let store = try TestStores.newStore(TestStores.library)
        let context = store.newContext()
        let book = Book(context: context)
        book.title = "First"
        try await context.save()
        let stale = store.newContext()
        let other = try stale.existingObject(with: book.objectID)
        try other.setValue("Changed elsewhere", forKey: "title")
        try await stale.save()

        book.title = "Mine"
        let added = Book(context: context)
        added.title = "Added"
        await #expect(throws: SaveError.self) { try await context.save() }
        #expect(context.hasChanges && book.isUpdated && added.isInserted && added.objectID.isTemporaryID)
        #expect(try await store.newContext().count(for: FetchRequest<Book>()) == 1)
    }
}

/// A context on an actor of its own, saved asynchronously while tasks on the same actor work.
private actor AsyncSaver {
    private let context: ObjectContext
    private lazy var child = context.newChildContext()
    private var isSaving = false

    init(_ store: PersistentStore) {
        context = store.newContext()
        context.undoManager = UndoManager()
    }

    /// Makes random edits with `first`, then saves asynchronously while a task on this actor —
    /// run during the save's wait — makes random edits with `then`.
    func editSaveAndEdit(
        _ objects: RandomLibrary.Objects, first: SplitMix64, then: SplitMix64
    ) async throws -> (saveError: String?, editedWhileWaiting: Bool) {
        var random = first
        let saved = try AsyncSavingTests.alive(context, objects)
        try ChildContextRandomTests.edit(context, saved, &random, deletesAnyBook: true)
        let waiting = try AsyncSavingTests.alive(context, objects, excludingDeleted: true)
        // Whether the edits ran while the save waited (and not after it).
        let editing = Task {
            var random = then
            let whileWaiting = self.isSaving
            try self.editAndFinish(waiting, &random)
            return whileWaiting
        }
        var saveError: String?
        do {
            isSaving = true
            defer { isSaving = false }
            try await context.save()
        } catch {
            saveError = AsyncSavingTests.describe(error, in: context)
            _ = try await editing.value
            // The synchronous side rolled back before its edits: so does this one, edits and all,
            // then makes them again.
            context.rollback()
            var random = then
            try editAndFinish(waiting, &random)
            return (saveError, false)
        }
        return (saveError, try await editing.value)
    }

    private func editAndFinish(_ objects: RandomLibrary.Objects, _ random: inout SplitMix64) throws {
        try AsyncSavingTests.editAndFinish(context, objects, &random)
    }

    func save() async -> String? {
        do {
            try await context.save()
            return nil
        } catch {
            context.rollback()
            return AsyncSavingTests.describe(error, in: context)
        }
    }

    func unsavedChanges() -> [String] {
        AsyncSavingTests.unsavedChanges(context)
    }

    /// Saves 100 books asynchronously while tasks on this actor save, fetch synchronously and
    /// asynchronously, here and in a child, and save asynchronously with one more book.
    func workWhileSaving() async throws -> (
        synchronousSave: SaveError?, synchronousFetch: ContextError?, synchronousFetchInChild: ContextError?,
        asynchronousFetch: Int, asynchronousFetchInChild: Int, secondSaveSaw: Int
    ) {
        for index in 0..<100 { Book(context: context).title = "book \(index)" }
        let synchronous = Task { () -> (SaveError?, ContextError?, ContextError?) in
            (self.synchronousSaveError(), self.synchronousFetchError(self.context), self.synchronousFetchError(self.child))
        }
        let asynchronousFetch = Task { try await self.context.fetch(FetchRequest<Book>()).count }
        let asynchronousFetchInChild = Task { try await self.child.fetch(FetchRequest<Book>()).count }
        let second = Task {
            Book(context: self.context).title = "one more"
            try await self.context.save()
            return try await self.context.count(for: FetchRequest<Book>())
        }
        try await context.save()
        let (saveError, fetchError, childFetchError) = await synchronous.value
        return (
            saveError, fetchError, childFetchError,
            try await asynchronousFetch.value, try await asynchronousFetchInChild.value, try await second.value)
    }

    /// Saves a book's second title asynchronously; while it waits, undoes that title (the last
    /// step), sets the page count, and tries a synchronous save in a child.
    func undoWhileSaving() async throws -> (title: String, pageCount: Int16, storedTitle: String, childSave: SaveError?) {
        let book = Book(context: context)
        book.title = "First"
        try await context.save()
        book.title = "Second"
        let waiting = Task { () -> SaveError? in
            self.context.undo()
            book.pageCount = 7
            let child = self.context.newChildContext()
            Book(context: child).title = "child"
            return self.synchronousSaveError(child)
        }
        try await context.save()
        let childSave = await waiting.value
        let stored = try context.store.newContext().existingObject(with: book.objectID) as! Book
        return (book.title, book.pageCount, stored.title, childSave)
    }

    /// The titles a controller sorted by author lists before and after a save during whose wait
    /// an author was renamed.
    func listAfterRenamingWhileSaving() async throws -> (before: [String], after: [String]) {
        let (austen, bronte) = (Author(context: context), Author(context: context))
        (austen.name, bronte.name) = ("Austen", "Brontë")
        for author in [austen, bronte] {
            let book = Book(context: context)
            book.title = "by \(author.name)"
            book.author = author
        }
        try await context.save()
        let request = FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("author.name"), ObjectSortDescriptor("title")])
        let controller = FetchedResultsController(fetchRequest: request, context: context)
        let delegate = RecordingDelegate<Book>()
        controller.delegate = delegate
        try await controller.performFetch()
        let before = controller.fetchedObjects.map { $0.map(\.title) } ?? []
        Book(context: context).title = "unrelated"
        let renaming = Task {
            austen.name = "Zola"
            self.context.processPendingChanges()
        }
        try await context.save()
        await renaming.value
        let after = controller.fetchedObjects.map { $0.map(\.title) } ?? []
        return (before, after.filter { $0 != "unrelated" })
    }

    private func synchronousSaveError(_ context: ObjectContext? = nil) -> SaveError? {
        let context = context ?? self.context
        do throws(SaveError) {
            try context.save()
            return nil
        } catch {
            return error
        }
    }

    private func synchronousFetchError(_ context: ObjectContext) -> ContextError? {
        do throws(ContextError) {
            _ = try context.fetch(FetchRequest<Book>())
            return nil
        } catch {
            return error
        }
    }
}
