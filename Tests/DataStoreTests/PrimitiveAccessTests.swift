import DataStore
import Foundation
import Library
import Observation
import Testing

/// A custom accessor over a modelled key, written as Core Data apps write them.
extension Book {
    /// `notes`, kept in capitals.
    var shoutedNotes: String? {
        get {
            willAccessValue(forKey: "notes")
            defer { didAccessValue(forKey: "notes") }
            return primitiveValue(for: Book.notes)
        }
        set {
            willChangeValue(forKey: "notes")
            setPrimitiveValue(newValue?.uppercased(), for: Book.notes)
            didChangeValue(forKey: "notes")
        }
    }
}

/// The primitive layer: primitive reads and writes tell nobody; the access and change calls
/// around them tell observers and the undo manager once.
@Suite struct PrimitiveAccessTests {
    @Test func aCustomAccessor_isObserved_undone_andSaved_asAGeneratedOne() throws {
        let store = try TestStores.newStore(TestStores.library)
        let context = store.newContext()
        context.undoManager = DataStore.UndoManager()
        let book = Book(context: context)
        book.title = "Emma"
        try context.save()

        let observed = ObservedProperty(book, "notes")
        book.shoutedNotes = "first edition"
        context.processPendingChanges()
        #expect(book.notes == "FIRST EDITION")
        #expect(observed.changes == 1, "one notification for the whole setter")
        #expect(book.changedValues()["notes"] as? String == "FIRST EDITION")

        let read = ChangeFlag()
        withObservationTracking { _ = book.shoutedNotes } onChange: { read.raise() }
        book.notes = "Second"
        context.processPendingChanges()
        #expect(read.isRaised, "the getter registered its read")

        context.undo()
        #expect(book.notes == "FIRST EDITION")
        context.undo()
        #expect(book.notes == nil, "the custom setter's change is an undo step")

        book.shoutedNotes = "kept"
        try context.save()
        let reread = try #require(try store.newContext().fetch(FetchRequest<Book>()).first)
        #expect(reread.shoutedNotes == "KEPT")
    }

    @Test func primitiveWrites_areChanges_thatNoObserverOrUndoStepHears() throws {
        let store = try TestStores.newStore(TestStores.library)
        let context = store.newContext()
        context.undoManager = DataStore.UndoManager()
        let book = Book(context: context)
        book.title = "Emma"
        try context.save()
        context.undoManager?.removeAllActions()

        let observed = ObservedProperty(book, "notes")
        book.setPrimitiveValue("quiet", for: Book.notes)
        try book.setPrimitiveValue(Int64(3), forKey: "pageCount")
        context.processPendingChanges()
        #expect(observed.changes == 0)
        #expect(book.notes == "quiet" && book.pageCount == 3)
        #expect(book.hasChanges)
        #expect(Set(book.changedValues().keys) == ["notes", "pageCount"])
        #expect(context.undoManager?.canUndo == false, "no undo step was recorded")
        #expect(throws: ContextError.self) { try book.setPrimitiveValue("many", forKey: "pageCount") }
        #expect(throws: ContextError.self) { try book.setPrimitiveValue(1, forKey: "noSuchKey") }

        try context.save()
        let reread = try #require(try store.newContext().fetch(FetchRequest<Book>()).first)
        #expect(reread.primitiveValue(forKey: "notes") as? String == "quiet")
        #expect(reread.primitiveValue(forKey: "pageCount") as? Int64 == 3)
    }

    @Test func primitiveReads_loadAFault_withoutRegisteringTheRead() throws {
        let store = try TestStores.newStore(TestStores.library)
        do {
            let context = store.newContext()
            Book(context: context).title = "Emma"
            try context.save()
        }
        let context = store.newContext()
        var request = FetchRequest<Book>()
        request.returnsObjectsAsFaults = true
        let book = try #require(try context.fetch(request).first)
        #expect(book.isFault)
        let changed = ChangeFlag()
        let title = withObservationTracking { book.primitiveValue(for: Book.title) } onChange: { changed.raise() }
        #expect(title == "Emma")
        #expect(!book.isFault)
        book.title = "Persuasion"
        #expect(!changed.isRaised, "a primitive read registers nothing")
    }

    @Test func primitiveRelationshipWrites_keepTheInverse() throws {
        let context = try TestStores.newStore(TestStores.library).newContext()
        let book = Book(context: context)
        let author = Author(context: context)
        author.name = "Austen"
        try book.setPrimitiveValue(author, forKey: "author")
        #expect(book.primitiveValue(for: Book.author) === author)
        #expect(author.books == [book])
        book.setPrimitiveValue(nil, for: Book.author)
        #expect(author.books.isEmpty)
        #expect((author.primitiveValue(forKey: "books") as? Set<ManagedObject>)?.isEmpty == true)
        #expect(book.primitiveValue(forKey: "noSuchKey") == nil)
    }
}
