@testable import DataStore
import Foundation
import GRDB
import Library
import Testing

/// Generated properties read and write their stored properties directly, with the meaning typed
/// access (`self[key]`) gives them: the same change tracking, conversions and fallbacks.
@Suite struct PropertyAccessTests {
    /// A saved book, and the store it is in.
    private func savedBook() throws -> (PersistentStore, URL) {
        let url = TestStores.newStoreURL()
        let store = try PersistentStore(url: url, model: TestStores.library)
        let context = store.newContext()
        let book = Book(context: context)
        book.title = "Middlemarch"
        book.pageCount = 880
        book.rating = 4.5
        try context.save()
        return (store, url)
    }

    @Test func generatedSetters_trackChangesAsTypedAccessDoes() throws {
        let (store, url) = try savedBook()
        let context = store.newContext()
        let book = try #require(try context.fetch(FetchRequest<Book>()).first)
        #expect(book.valueStorage == .properties)

        // The value it already has: no change.
        book.pageCount = 880
        book.title = "Middlemarch"
        #expect(!context.hasChanges)

        book.pageCount = 904
        book.rating = nil
        #expect(book.isUpdated)
        #expect(context.changedKeys(of: book) == ["pageCount", "rating"])
        #expect(book.savedAttributeValues[Book.pageCount.slot] == .integer(880))
        #expect(book.primitiveValue(atSlot: Book.pageCount.slot) == .integer(904))
        try context.save()

        let row = try DatabaseQueue(path: url.path).read { db in try Row.fetchOne(db, sql: "SELECT ZPAGECOUNT, ZRATING FROM ZITEM") }
        #expect(row?["ZPAGECOUNT"] as Int64? == 904)
        #expect(row?["ZRATING"] as Double? == nil)
        let reread = try #require(try store.newContext().fetch(FetchRequest<Book>()).first)
        #expect(reread.pageCount == 904)
        #expect(reread.rating == nil)
    }

    @Test func rollback_restoresWhatAGeneratedSetterChanged() throws {
        let (store, _) = try savedBook()
        let context = store.newContext()
        let book = try #require(try context.fetch(FetchRequest<Book>()).first)
        book.rating = 2.25
        book.title = "Daniel Deronda"
        context.rollback()
        #expect(book.rating == 4.5)
        #expect(book.title == "Middlemarch")
        #expect(!context.hasChanges)
    }

    @Test func aGetterOfAFault_loadsItsRow() throws {
        let (store, _) = try savedBook()
        let id = try #require(try store.newContext().fetch(FetchRequest<Book>()).first).objectID
        let context = store.newContext()
        let book = try #require(context.object(with: id) as? Book)
        #expect(book.isFault)
        #expect(book.pageCount == 880)
        #expect(!book.isFault)
    }

    @Test func propertiesOfAnObjectWithItsValuesInTheBuffer_goThroughTypedAccess() throws {
        let (store, _) = try savedBook()
        let context = store.newContext()
        let book = try #require(try context.fetch(FetchRequest<Book>()).first)
        // A value no property holds moves every value to the buffer.
        book.setAttributeValue(.string("unrated"), atSlot: Book.rating.slot)
        #expect(book.valueStorage == .buffer)

        book.pageCount = 12
        #expect(book.primitiveValue(atSlot: Book.pageCount.slot) == .integer(12))
        #expect(book.pageCount == 12)
        #expect(book.title == "Middlemarch")
        #expect(context.changedKeys(of: book) == ["pageCount", "rating"])
        context.rollback()
        #expect(book.pageCount == 880)
    }

    @Test(arguments: TestedEngine.available) func integerAndFloatProperties_convertAsTypedAccessDoes(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let book = Book(context: store.newContext())
            book.pageCount = -1
            book.rating = 0.1
            #expect(book.primitiveValue(atSlot: Book.pageCount.slot) == .integer(-1))
            #expect(book.primitiveValue(atSlot: Book.rating.slot) == .double(Double(Float(0.1))))
            #expect(book.pageCount == book[Book.pageCount])
            #expect(book.rating == book[Book.rating])
            // A stored integer beyond Int16 truncates, as typed access reads it.
            _ = book.storeAttributeValue(.integer(70_000), atSlot: Book.pageCount.slot)
            #expect(book.pageCount == Int16(truncatingIfNeeded: 70_000))
            #expect(book.pageCount == book[Book.pageCount])
        }
    }
}
