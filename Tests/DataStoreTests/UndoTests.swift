import DataStore
import Foundation
import Library
import Testing

/// Undo and redo of each kind of change, grouping, and the interplay with save and rollback.
@Suite struct UndoTests {
    typealias Author = Library.Author
    typealias Book = Library.Book
    typealias Chapter = Library.Chapter

    static func newContext() throws -> ObjectContext {
        let context = try TestStores.newStore(TestStores.library).newContext()
        context.undoManager = DataStore.UndoManager()
        return context
    }

    static func storeTitles(_ store: PersistentStore) throws -> [String] {
        try store.newContext().fetch(FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("title")])).map(\.title)
    }

    @Test func attributeEdits_undoAndRedo_perEvent() throws {
        let context = try Self.newContext()
        let book = Book(context: context)
        book.title = "Emma"
        try context.save()

        book.title = "Emma, draft"
        book.pageCount = 120
        context.processPendingChanges()
        book.title = "Emma, final"
        context.processPendingChanges()

        context.undo()
        #expect(book.title == "Emma, draft")
        #expect(book.pageCount == 120)
        context.undo()
        #expect(book.title == "Emma")
        #expect(book.pageCount == 0)
        #expect(!book.hasChanges)
        #expect(context.undoManager?.canUndo == true)  // the insert, saved since
        context.redo()
        #expect(book.title == "Emma, draft")
        #expect(book.pageCount == 120)
        context.redo()
        #expect(book.title == "Emma, final")
        #expect(context.undoManager?.canRedo == false)
    }

    @Test func explicitGroups_nestInOneStep_andNewChangesClearRedo() throws {
        let context = try Self.newContext()
        let manager = try #require(context.undoManager)
        manager.groupsByEvent = false
        let book = Book(context: context)
        manager.removeAllActions()
        manager.beginUndoGrouping()
        book.title = "One"
        manager.beginUndoGrouping()
        book.pageCount = 1
        manager.endUndoGrouping()
        manager.setActionName("Typing")
        manager.endUndoGrouping()
        #expect(manager.undoActionName == "Typing")
        context.undo()
        #expect(book.title == "Untitled")
        #expect(book.pageCount == 0)
        #expect(manager.redoActionName == "Typing")
        book.title = "Two"
        #expect(!manager.canRedo)
    }

    @Test func insert_undoForgetsTheObject_redoBringsItBack() throws {
        let context = try Self.newContext()
        let book = Book(context: context)
        book.title = "Sanditon"
        let id = book.objectID
        context.processPendingChanges()
        context.undo()
        #expect(book.context == nil)
        #expect(!context.hasChanges)
        #expect(context.registeredObject(for: id) == nil)
        context.redo()
        #expect(book.context === context)
        #expect(context.insertedObjects == [book])
        #expect(book.title == "Sanditon")
        try context.save()
        #expect(try Self.storeTitles(context.store) == ["Sanditon"])
    }

    @Test func delete_undoAndRedo_beforeSaving() throws {
        let context = try Self.newContext()
        let book = Book(context: context)
        book.title = "Emma"
        try context.save()
        book.title = "Emma, edited"
        context.processPendingChanges()
        context.delete(book)
        context.processPendingChanges()
        context.undo()
        #expect(!book.isDeleted)
        #expect(book.isUpdated)
        context.redo()
        #expect(book.isDeleted)
        context.undo()
        try context.save()
        #expect(try Self.storeTitles(context.store) == ["Emma, edited"])
    }

    @Test func relationshipEdits_undoWithTheirInverses() throws {
        let context = try Self.newContext()
        let austen = Author(context: context)
        austen.name = "Jane Austen"
        let eliot = Author(context: context)
        eliot.name = "George Eliot"
        let book = Book(context: context)
        book.author = austen
        try context.save()

        book.author = eliot
        context.processPendingChanges()
        #expect(eliot.books == [book] && austen.books.isEmpty)
        context.undo()
        #expect(book.author === austen)
        #expect(austen.books == [book])
        #expect(eliot.books.isEmpty)
        context.redo()
        #expect(book.author === eliot)
        #expect(austen.books.isEmpty)

        let chapters = (1...3).map { number -> Chapter in
            let chapter = Chapter(context: context)
            chapter.title = "\(number)"
            return chapter
        }
        context.processPendingChanges()
        for chapter in chapters { book.addToChapters(chapter) }
        book.insertIntoChapters(Chapter(context: context), at: 0)
        context.processPendingChanges()
        context.undo()
        #expect(book.chapters.isEmpty)
        #expect(chapters.allSatisfy { $0.book == nil })
        context.redo()
        #expect(book.chapters.dropFirst().map(\.title) == ["1", "2", "3"])
        #expect(chapters.allSatisfy { $0.book === book })
    }

    @Test func savedDeleteWithCascade_undoesIntoInsertsWithTheSameKeys() throws {
        let context = try Self.newContext()
        let store = context.store
        let author = Author(context: context)
        let book = Book(context: context)
        book.title = "Persuasion"
        book.author = author
        for number in 1...2 {
            let chapter = Chapter(context: context)
            chapter.title = "Chapter \(number)"
            book.addToChapters(chapter)
        }
        try context.save()
        let bookID = book.objectID
        let chapterIDs = book.chapters.map(\.objectID)

        context.delete(book)
        try context.save()
        #expect(try Self.storeTitles(store).isEmpty)
        #expect(author.books.isEmpty)
        #expect(try store.newContext().count(for: FetchRequest<Chapter>()) == 0)

        context.undo()
        #expect(book.context === context)
        #expect(book.isInserted)
        #expect(author.books == [book])
        try context.save()
        let reread = store.newContext()
        let saved = try #require(try reread.existingObject(with: bookID) as? Book)
        #expect(saved.title == "Persuasion")
        #expect(saved.chapters.map(\.objectID) == chapterIDs)
        #expect(saved.author?.objectID == author.objectID)

        // Redo deletes it again, cascade included.
        context.redo()
        try context.save()
        #expect(try store.newContext().count(for: FetchRequest<Chapter>()) == 0)
        #expect(try Self.storeTitles(store).isEmpty)
    }

    @Test func undoAfterSave_makesUnsavedChanges() throws {
        let context = try Self.newContext()
        let book = Book(context: context)
        book.title = "Emma"
        try context.save()
        book.title = "Emma, revised"
        try context.save()
        context.undo()
        #expect(book.title == "Emma")
        #expect(book.isUpdated)
        try context.save()
        #expect(try Self.storeTitles(context.store) == ["Emma"])
        // The insert is the next step: undoing a saved insert deletes the object.
        context.undo()
        #expect(book.isDeleted)
    }

    /// An undo that reaches objects turned into faults since fires them, and changes them back;
    /// relationships recorded before a save name the objects it saved by their permanent IDs.
    @Test func undoAfterSaveAndRefresh_changesFaultsBack_withPermanentIDs() throws {
        let context = try Self.newContext()
        let (austen, bronte) = (Author(context: context), Author(context: context))
        (austen.name, bronte.name) = ("Austen", "Brontë")
        let book = Book(context: context)
        book.author = austen
        try context.save()
        let sequel = Book(context: context)
        sequel.author = austen
        context.processPendingChanges()
        book.author = bronte
        try context.save()
        context.refresh(book, mergeChanges: false)
        context.refresh(austen, mergeChanges: false)

        context.undo()
        #expect(book.author === austen && bronte.books.isEmpty)
        #expect(austen.books == [book, sequel])
        // The list holds the sequel's permanent ID, so the sequel can leave it.
        sequel.author = nil
        #expect(austen.books == [book])
        try context.save()
        let reader = context.store.newContext()
        #expect(try reader.existingObject(with: austen.objectID).value(forKey: "books") as? Set<ManagedObject> == [reader.object(with: book.objectID)])
    }

    @Test func rollback_andReset_clearTheStacks() throws {
        let context = try Self.newContext()
        let book = Book(context: context)
        book.title = "Emma"
        context.processPendingChanges()
        context.rollback()
        #expect(context.undoManager?.canUndo == false)
        let other = Book(context: context)
        other.title = "Persuasion"
        context.reset()
        #expect(context.undoManager?.canUndo == false)
        #expect(context.undoManager?.canRedo == false)
    }

    @Test(arguments: TestedEngine.available) func withoutAnUndoManager_nothingIsRecorded(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            let book = Book(context: context)
            book.title = "Emma"
            context.undo()
            #expect(book.title == "Emma")
            #expect(context.insertedObjects == [book])
        }
    }

    @Test func levelsOfUndo_keepsTheLatestSteps() throws {
        let context = try Self.newContext()
        context.undoManager?.levelsOfUndo = 2
        let book = Book(context: context)
        context.processPendingChanges()
        for title in ["A", "B", "C"] {
            book.title = title
            context.processPendingChanges()
        }
        context.undo()
        context.undo()
        context.undo()
        #expect(book.title == "A")
        #expect(book.context === context)
    }

    @Test func controller_reportsUndoneChanges() throws {
        let context = try Self.newContext()
        for title in ["Emma", "Persuasion"] {
            let book = Book(context: context)
            book.title = title
        }
        try context.save()
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("title")]), context: context)
        let delegate = RecordingDelegate<Book>()
        controller.delegate = delegate
        try controller.performFetch()
        let emma = try #require(controller.fetchedObjects?.first)
        emma.title = "Zemma"
        let added = Book(context: context)
        added.title = "Lady Susan"
        context.processPendingChanges()
        #expect(controller.fetchedObjects?.map(\.title) == ["Lady Susan", "Persuasion", "Zemma"])
        context.undo()
        #expect(controller.fetchedObjects?.map(\.title) == ["Emma", "Persuasion"])
        #expect(delegate.reports == 2)
        context.redo()
        #expect(controller.fetchedObjects?.map(\.title) == ["Lady Susan", "Persuasion", "Zemma"])
    }

    @Test(arguments: TestedEngine.available) func childContext_undoAfterSavingIntoTheParent(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            let book = Book(context: context)
            book.title = "Emma"
            try context.save()
            let child = context.newChildContext()
            child.undoManager = DataStore.UndoManager()
            let edited = try #require(child.object(with: book.objectID) as? Book)
            edited.title = "Emma, edited"
            try child.save()
            #expect(book.title == "Emma, edited")
            child.undo()
            #expect(edited.title == "Emma")
            try child.save()
            #expect(book.title == "Emma")
        }
    }
}
