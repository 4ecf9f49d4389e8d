import DataModel
@testable import DataStore
import Foundation
import GRDB
import PropertyLists
import StoreSchema
import Testing

/// A store whose model was made in code opens with the model it carries, and an object inserted
/// into it gets the model's default object as Core Data gives it: CoreDataPlus's `Book.frontCover`
/// defaults to a `Cover` of the app's class, which the column holds archived alone.
@Suite struct CarriedDefaultObjectTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("StoreSchemaTests/Fixtures/ThirdParty/CoreDataPlus/SampleModel2_V2.sqlite")

    @Test func anInsertedObject_getsTheDefaultObject_andSavesItsBytes() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("carried-default-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: Self.fixture, to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let model = try PersistentStore.modelForStore(at: url)
        let defaultCover = try #require(model.entity(named: "Book")?.attributes.first { $0.name == "frontCover" }?.defaultData)

        let store = try PersistentStore(url: url, model: ManagedObjectModel(model: model))
        let context = store.newContext()
        let book = try context.insertObject(entityName: "Book")
        #expect(book.value(forKey: "frontCover") as? Data == defaultCover)
        try book.setValue("A book with the default cover", forKey: "title")
        try book.setValue(UUID(), forKey: "uniqueID")
        try book.setValue(Decimal(12), forKey: "price")
        try book.setValue(Date(), forKey: "publishedAt")
        let authors = try context.fetch(FetchRequest<ManagedObject>(entityName: "Author"))
        let author = try #require(authors.first)
        try book.setValue(author, forKey: "author")
        let page = try context.insertObject(entityName: "Page")
        try page.setValue(Int32(1), forKey: "number")
        try page.setValue(Data("page one".utf8), forKey: "content")
        try page.setValue(book, forKey: "book")
        try context.save()

        let stored = try DatabaseQueue(path: url.path).read { db in
            try Data.fetchOne(db, sql: "SELECT ZFRONTCOVER FROM ZBOOK WHERE ZTITLE = 'A book with the default cover'")
        }
        #expect(stored == defaultCover)
        let cover = try KeyedArchive(binaryPropertyList: Array(try #require(stored))).topValue()
        #expect(cover.object?.className == "CoreDataPlus_Tests.Cover")
        #expect(try cover.object?.value(forKey: "text") == .string("default cover"))
    }
}
