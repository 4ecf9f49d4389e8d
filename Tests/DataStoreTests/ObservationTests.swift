@testable import DataStore
import Foundation
import GeneratedProducts
import Library
import Observation
import Testing

/// Objects are `Observable`: reading a property registers it, and every path that changes a value
/// — setters, inverse relationships, rollback, undo, merges, refreshes, values a save computed —
/// notifies its observers exactly once, and no other property's.
@Suite struct ObservationTests {
    typealias Book = Library.Book
    typealias Author = Library.Author
    typealias Chapter = Library.Chapter

    /// A saved book with an author, read in a context of its own.
    static func savedBook() throws -> (PersistentStore, ObjectContext, Book) {
        let store = try TestStores.newStore(TestStores.library)
        let writer = store.newContext()
        let book = Book(context: writer)
        book.title = "Middlemarch"
        book.price = 12
        book.author = Author(context: writer)
        book.author?.name = "George Eliot"
        try writer.save()
        let context = store.newContext()
        let read = try #require(try context.fetch(FetchRequest<Book>()).first)
        _ = read.title
        return (store, context, read)
    }

    // MARK: Reads and setters

    @Test func readingAGeneratedProperty_registersIt_andItsSetterNotifiesItsObservers() throws {
        let (_, _, book) = try Self.savedBook()
        let title = ChangeFlag(), price = ChangeFlag()
        withObservationTracking { _ = book.title } onChange: { title.raise() }
        withObservationTracking { _ = book.price } onChange: { price.raise() }
        book.title = "Daniel Deronda"
        #expect(title.isRaised)
        #expect(!price.isRaised)
    }

    @Test func setters_notifyOnce_andOnlyWhenTheValueChanges() throws {
        let (_, _, book) = try Self.savedBook()
        let title = ObservedProperty(book, "title"), price = ObservedProperty(book, "price")
        book.title = "Daniel Deronda"
        book.title = "Daniel Deronda"
        #expect((title.changes, price.changes) == (1, 0))
        try book.setValue("Adam Bede", forKey: "title")
        #expect(title.changes == 2)
        // Typed access, for types without a stored property (a composite).
        let spot = ObservedProperty(book, "shelfSpot")
        book.shelfSpot = ShelfSpot(room: "Study", row: 2)
        #expect(spot.changes == 1)
        #expect((title.changes, price.changes) == (2, 0))
    }

    /// A new object's setters write their fields alone until something observes it: a read under
    /// tracking (its registrar) or an observer of its context.
    @Test func aNewObjectsSetters_notifyOnceObserved() throws {
        let store = try TestStores.newStore(TestStores.library)
        let context = store.newContext()
        let book = Book(context: context)
        #expect(book.propertyWrite(atSlot: Book.title.slot) == .stored)
        book.title = "Middlemarch"
        #expect(book.title == "Middlemarch")

        let title = ObservedProperty(book, "title")
        #expect(book.propertyWrite(atSlot: Book.title.slot) == .storedAndTracked)
        book.title = "Daniel Deronda"
        book.title = "Daniel Deronda"
        #expect(title.changes == 1)

        let other = Book(context: context)
        var told = 0
        let token = context.addObserver { _ in told += 1 }
        #expect(other.propertyWrite(atSlot: Book.title.slot) == .storedAndTracked)
        other.title = "Romola"
        context.processPendingChanges()
        #expect(told == 1)
        withExtendedLifetime(token) {}
    }

    @Test func relationshipChanges_notifyBothSidesOnce() throws {
        let (_, context, book) = try Self.savedBook()
        let first = try #require(book.author), second = Author(context: context)
        _ = first.books
        let author = ObservedProperty(book, "author"), firstBooks = ObservedProperty(first, "books")
        let secondBooks = ObservedProperty(second, "books"), title = ObservedProperty(book, "title")
        book.author = second
        #expect((author.changes, firstBooks.changes, secondBooks.changes) == (1, 1, 1))
        // The inverse side's mutator moves the book back: each side changes once more.
        first.addToBooks(book)
        #expect((author.changes, firstBooks.changes, secondBooks.changes) == (2, 2, 2))
        #expect(title.changes == 0)
    }

    // MARK: The runtime's own changes

    @Test func rollback_notifiesEachPropertyItRestores() throws {
        let (_, context, book) = try Self.savedBook()
        let author = try #require(book.author)
        book.title = "Daniel Deronda"
        book.author = nil
        let title = ObservedProperty(book, "title"), price = ObservedProperty(book, "price")
        let bookAuthor = ObservedProperty(book, "author"), books = ObservedProperty(author, "books")
        context.rollback()
        #expect((title.changes, bookAuthor.changes, books.changes, price.changes) == (1, 1, 1, 0))
        #expect(book.title == "Middlemarch")
        #expect(book.author === author)
    }

    @Test func undoAndRedo_notifyOnceEach() throws {
        let (_, context, book) = try Self.savedBook()
        context.undoManager = DataStore.UndoManager()
        book.title = "Daniel Deronda"
        context.processPendingChanges()
        let title = ObservedProperty(book, "title"), price = ObservedProperty(book, "price")
        context.undo()
        #expect(book.title == "Middlemarch")
        context.redo()
        #expect(book.title == "Daniel Deronda")
        #expect((title.changes, price.changes) == (2, 0))
    }

    @Test func mergingASaveMadeElsewhere_notifiesThePropertiesItChanged() throws {
        let (store, context, book) = try Self.savedBook()
        let title = ObservedProperty(book, "title"), price = ObservedProperty(book, "price")
        let changes = ChangeSetCollector()
        store.addObserver { changes.append($0) }
        let other = store.newContext()
        let copy = try #require(try other.fetch(FetchRequest<Book>()).first)
        copy.title = "Daniel Deronda"
        try other.save()
        context.mergeChanges(from: try #require(changes.all.last))
        #expect((title.changes, price.changes) == (1, 0))
        #expect(book.title == "Daniel Deronda")
    }

    @Test func mergingAnotherConnectionsWrite_notifiesThePropertiesThatDiffer() throws {
        let (store, context, book) = try Self.savedBook()
        let title = ObservedProperty(book, "title"), price = ObservedProperty(book, "price")
        let other = try PersistentStore(url: try #require(store.url), model: TestStores.library).newContext()
        let copy = try #require(try other.fetch(FetchRequest<Book>()).first)
        copy.price = 15
        try other.save()
        #expect(try store.checkForExternalChanges())
        context.mergeChanges(from: ChangeSet(isExternalWrite: true))
        #expect((title.changes, price.changes) == (0, 1))
        #expect(book.price == 15)
    }

    @Test func refreshingWithLocalChanges_notifiesWhatDiffersAfterwards() throws {
        let (store, context, book) = try Self.savedBook()
        book.title = "Daniel Deronda"
        let other = store.newContext()
        let copy = try #require(try other.fetch(FetchRequest<Book>()).first)
        copy.price = 15
        try other.save()
        let title = ObservedProperty(book, "title"), price = ObservedProperty(book, "price")
        context.refresh(book, mergeChanges: true)
        // The local title stays on top of the fresh price.
        #expect((title.changes, price.changes) == (0, 1))
        #expect((book.title, book.price) == ("Daniel Deronda", 15))
    }

    @Test func turningIntoAFault_notifiesEveryLoadedProperty_andLoadingNotifiesNothing() throws {
        let (_, context, book) = try Self.savedBook()
        book.title = "Daniel Deronda"
        let title = ObservedProperty(book, "title"), price = ObservedProperty(book, "price")
        let author = ObservedProperty(book, "author")
        context.refresh(book, mergeChanges: false)
        #expect(book.isFault)
        // Its next read may find other values: each loaded property is notified, once.
        #expect((title.changes, price.changes, author.changes) == (1, 1, 1))
        #expect(book.title == "Middlemarch")
        _ = book.author?.books
        #expect((title.changes, price.changes, author.changes) == (1, 1, 1))
    }

    @Test func aValueASaveComputes_isNotifiedOnce() throws {
        let (_, context, book) = try Self.savedBook()
        let pages = ObservedProperty(book, "pagesCount"), title = ObservedProperty(book, "title")
        book.chapters = [Chapter(context: context), Chapter(context: context)]
        try context.save()
        #expect(book.pagesCount == 2)
        #expect((pages.changes, title.changes) == (1, 0))
    }

    // MARK: Registration

    @Test(arguments: TestedEngine.available) func keyValueCoding_registersReadsOfDynamicObjects(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            let author = try context.insertObject(entityName: "Author")
            let changed = ChangeFlag()
            withObservationTracking { _ = author.value(forKey: "name") } onChange: { changed.raise() }
            try author.setValue("George Eliot", forKey: "name")
            #expect(changed.isRaised)
        }
    }

    @Test func onlyObjectsReadUnderTracking_haveARegistrar() throws {
        #expect(ObservationTrackingProbe.works, "Observation no longer hashes the key paths it records: every read makes a registrar")
        let (_, context, book) = try Self.savedBook()
        let authorID = try #require(book.author).objectID
        let author = try #require(context.registeredObject(for: authorID) as? Author)
        // Read outside tracking: the title and the author, whose name is read too.
        #expect(book.title == "Middlemarch")
        #expect(author.name == "George Eliot")
        #expect(book.observationRegistrar == nil)
        #expect(author.observationRegistrar == nil)

        let changed = ChangeFlag()
        withObservationTracking { _ = book.title } onChange: { changed.raise() }
        #expect(book.observationRegistrar != nil)
        #expect(author.observationRegistrar == nil)
        // An object read under tracking keeps its registrar, and its changes reach the observer.
        book.title = "Daniel Deronda"
        #expect(changed.isRaised)
        // Changing an object nothing tracks tells nobody, and makes no registrar; nor does reading
        // it after a tracking was set up and then cancelled by a change, both of which Observation
        // does with the probe too.
        author.name = "Mary Ann Evans"
        #expect(author.name == "Mary Ann Evans")
        #expect(author.observationRegistrar == nil)
    }

    @Test func aReadUnderNestedTracking_registersWithBothObservers() throws {
        let (_, _, book) = try Self.savedBook()
        let outer = ChangeFlag(), inner = ChangeFlag()
        withObservationTracking {
            withObservationTracking { _ = book.price } onChange: { inner.raise() }
        } onChange: { outer.raise() }
        book.price = 13
        #expect(inner.isRaised)
        #expect(outer.isRaised)
    }

    @Test(arguments: TestedEngine.available) func classesGeneratedWithoutObservation_registerNothing(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.products, on: engine) { store throws in
            let context = store.newContext()
            let product = Products(context: context)
            let changed = ChangeFlag()
            withObservationTracking { _ = product.name } onChange: { changed.raise() }
            product.name = "Kettle"
            #expect(!Products.isObservable)
            #expect(!changed.isRaised)
            #expect(product.observationRegistrar == nil)
        }
    }

    @Test @MainActor func observations_deliverEachNewValue() async throws {
        let (_, _, book) = try Self.savedBook()
        let titles = Observations { book.title }
        var iterator = titles.makeAsyncIterator()
        #expect(await iterator.next() == "Middlemarch")
        book.title = "Daniel Deronda"
        #expect(await iterator.next() == "Daniel Deronda")
    }
}

/// Whether an observer's `onChange` ran.
final class ChangeFlag: @unchecked Sendable {
    // Raised on the test's thread: the changes run there.
    private(set) var isRaised = false
    func raise() { isRaised = true }
}

/// Counts the notifications the observers of one property of an object get. Tracking ends at
/// the first change, so the counter tracks again from its `onChange`, registering the property
/// as a read does but without reading it: a read in the middle of a change could load values.
final class ObservedProperty: @unchecked Sendable {
    // Used on the test's thread only, where the changes run.
    let object: ManagedObject
    let name: String
    private(set) var changes = 0

    init(_ object: ManagedObject, _ name: String) {
        self.object = object
        self.name = name
        track()
    }

    private func track() {
        withObservationTracking {
            if let attribute = object.entity.attribute(named: name) {
                object.registerAccess(toAttributeAt: attribute.slot)
            } else if let relationship = object.entity.relationship(named: name) {
                object.registerAccess(toRelationshipAt: relationship.slot)
            }
        } onChange: {
            self.changes += 1
            self.track()
        }
    }
}
