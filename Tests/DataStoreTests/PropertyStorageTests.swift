@testable import DataStore
import DataModel
import DataModelParser
import Foundation
import GRDB
import class GeneratedBooks.Book
import Library
import Testing

/// Generated classes keep attribute values in stored properties; anything those cannot hold goes to
/// the value buffer, and nothing is lost either way.
@Suite struct PropertyStorageTests {
    @Test(arguments: TestedEngine.available) func fetchedObjectsOfGeneratedClasses_keepTheirValuesInProperties(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            let audiobook = Library.Audiobook(context: context)
            audiobook.title = "Middlemarch"
            audiobook.price = Decimal(string: "12.5")
            audiobook.duration = 3_600.5
            audiobook.website = URL(string: "https://example.org/middlemarch")
            audiobook.shelfSpot = ShelfSpot(room: "Study", row: 3)
            #expect(audiobook.valueStorage == .properties)
            try context.save()

            let fetched = try #require(try store.newContext().fetch(FetchRequest<Library.Audiobook>()).first)
            #expect(fetched.title == "Middlemarch")
            #expect(fetched.valueStorage == .properties)
            // Inherited, own and composite attributes, each from its class's properties.
            #expect(fetched.price == Decimal(string: "12.5"))
            #expect(fetched.duration == 3_600.5)
            #expect(fetched.website == URL(string: "https://example.org/middlemarch"))
            #expect(fetched.shelfSpot?.room == "Study")
            #expect(fetched.shelfSpot?.row == 3)
        }
    }

    /// A store of one saved book, whose row `sql` then changes past the store, as another writer would.
    private static func storeOfOneBook(thenRunning sql: String, _ arguments: StatementArguments = []) throws -> (URL, PersistentStore) {
        let url = TestStores.newStoreURL()
        let store = try PersistentStore(url: url, model: TestStores.books)
        let context = store.newContext()
        Book(context: context).title = "Middlemarch"
        try context.save()
        try DatabaseQueue(path: url.path).write { db in try db.execute(sql: sql, arguments: arguments) }
        return (url, store)
    }

    @Test func aValueOfAnotherType_staysInTheBuffer_andSurvivesASave() throws {
        // Text in the price column: a store written by other means.
        let (url, store) = try Self.storeOfOneBook(thenRunning: "UPDATE ZBOOK SET ZPRICE = 'cheap'")

        let other = store.newContext()
        let fetched = try #require(try other.fetch(FetchRequest<Book>()).first)
        #expect(fetched.valueStorage == .buffer)
        #expect(fetched.value(forKey: "price") as? String == "cheap")
        #expect(fetched.title == "Middlemarch")
        fetched.title = "Daniel Deronda"
        try other.save()

        let row = try DatabaseQueue(path: url.path).read { db in try Row.fetchOne(db, sql: "SELECT ZPRICE, ZTITLE FROM ZBOOK") }
        #expect(row?["ZPRICE"] as String? == "cheap")
        #expect(row?["ZTITLE"] as String? == "Daniel Deronda")
    }

    /// An object keeps its version in 32 bits; a row saved more often than that keeps it whole.
    @Test func aVersionBeyond32Bits_isKeptWhole_throughUpdatesAndConflicts() throws {
        let large: Int64 = 5_000_000_000
        let (url, store) = try Self.storeOfOneBook(thenRunning: "UPDATE ZBOOK SET Z_OPT = ?", [large])
        func storedVersion() throws -> Int64? {
            try DatabaseQueue(path: url.path).read { db in try Int64.fetchOne(db, sql: "SELECT Z_OPT FROM ZBOOK") }
        }

        let other = store.newContext()
        let fetched = try #require(try other.fetch(FetchRequest<Book>()).first)
        #expect(fetched.version == large)
        fetched.title = "Daniel Deronda"
        try other.save()
        #expect(try storedVersion() == large + 1)
        #expect(fetched.version == large + 1)
        fetched.title = "Romola"
        try other.save()
        #expect(try storedVersion() == large + 2)

        // A row written meanwhile is a conflict, not an overwrite.
        try DatabaseQueue(path: url.path).write { db in try db.execute(sql: "UPDATE ZBOOK SET Z_OPT = Z_OPT + 1") }
        fetched.title = "Adam Bede"
        #expect(throws: SaveError.self) { try other.save() }
        // Refreshed to a small version, the object keeps that one.
        try DatabaseQueue(path: url.path).write { db in try db.execute(sql: "UPDATE ZBOOK SET Z_OPT = 7") }
        other.refresh(fetched, mergeChanges: false)
        #expect(fetched.title == "Romola")
        #expect(fetched.version == 7)
        #expect(fetched.extrasIfAny == nil, "nothing kept apart once the version fits")
    }

    @Test(arguments: TestedEngine.available) func settingAValueOfAnotherType_movesTheValuesToTheBuffer(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let context = store.newContext()
            let book = Book(context: context)
            book.title = "Middlemarch"
            book.price = 9.5
            #expect(book.valueStorage == .properties)
            book.setAttributeValue(.string("free"), atSlot: Book.price.slot)
            #expect(book.valueStorage == .buffer)
            #expect(book.primitiveValue(atSlot: Book.price.slot) == .string("free"))
            #expect(book.title == "Middlemarch")
            context.rollback()
        }
    }

    @Test func aClassOfAnotherModelVersion_keepsItsValuesInTheBuffer() throws {
        // `Book` as another version declares it: one attribute more than the generated class knows.
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Book" representedClassName="Book">
                    <attribute name="price" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                    <attribute name="subtitle" optional="YES" attributeType="String"/>
                    <attribute name="title" attributeType="String" defaultValueString=""/>
                </entity>
            </model>
            """
        let parsed = try ModelParser.parse(Array(xml.utf8), path: "Books2.xcdatamodel/contents").model
        let store = try TestStores.newStore(ManagedObjectModel(model: parsed, classes: [Book.self]))
        let context = store.newContext()
        let book = Book(context: context)
        #expect(book.valueStorage == .buffer)
        book.title = "Middlemarch"
        try book.setValue("A Study of Provincial Life", forKey: "subtitle")
        try context.save()

        let fetched = try #require(try store.newContext().fetch(FetchRequest<Book>()).first)
        #expect(fetched.valueStorage == .buffer)
        #expect(fetched.title == "Middlemarch")
        #expect(fetched.value(forKey: "subtitle") as? String == "A Study of Provincial Life")
    }

    @Test func aClassOfAVersionWhereAnAttributeHasAnotherType_keepsItsValuesInTheBuffer() throws {
        // The same attribute names as the generated class, but `price` is text in this version.
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Book" representedClassName="Book">
                    <attribute name="price" optional="YES" attributeType="String"/>
                    <attribute name="title" attributeType="String" defaultValueString=""/>
                </entity>
            </model>
            """
        let parsed = try ModelParser.parse(Array(xml.utf8), path: "Books3.xcdatamodel/contents").model
        let store = try TestStores.newStore(ManagedObjectModel(model: parsed, classes: [Book.self]))
        let context = store.newContext()
        let book = Book(context: context)
        #expect(book.valueStorage == .buffer)
        book.title = "Middlemarch"
        try book.setValue("cheap", forKey: "price")
        try context.save()

        let fetched = try #require(try store.newContext().fetch(FetchRequest<Book>()).first)
        #expect(fetched.valueStorage == .buffer)
        #expect(fetched.title == "Middlemarch")
        #expect(fetched.value(forKey: "price") as? String == "cheap")
    }

    @Test func theSameModelParsedAtRunTime_keepsTheValuesInProperties() throws {
        // Not the generated model value, but a model with the same entity: the class fits it.
        let parsed = try TestStores.model("Books")
        let store = try TestStores.newStore(ManagedObjectModel(model: parsed, classes: [Book.self]))
        let book = Book(context: store.newContext())
        book.title = "Middlemarch"
        #expect(book.valueStorage == .properties)
    }

    @Test(arguments: TestedEngine.available) func changesRollBackAndRefreshesDropThePropertyValues(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let context = store.newContext()
            let book = Book(context: context)
            book.title = "Middlemarch"
            book.price = 9.5
            try context.save()

            book.title = "Daniel Deronda"
            #expect(book.attributeChanged(atSlot: Book.title.slot))
            #expect(book.savedAttributeValues[Book.title.slot] == .string("Middlemarch"))
            context.rollback()
            #expect(book.title == "Middlemarch")
            #expect(book.valueStorage == .properties)

            context.refresh(book, mergeChanges: false)
            #expect(book.valueStorage == .none)
            #expect(book.storedAttributeValue(atSlot: Book.title.slot) == .null)
            #expect(book.isFault)
            #expect(book.price == 9.5)
            #expect(book.valueStorage == .properties)
        }
    }

    /// `Int64`, `Double` and `Date` values live in 8-byte `CompactOptional`s, which give up one bit
    /// pattern to stand for `nil`; every other pattern comes back as it went in.
    @Test func compactOptionals_takeTheWidthOfTheirValue_andHoldEveryOtherPattern() {
        #expect(MemoryLayout<CompactOptional<Int64>>.size == 8)
        #expect(MemoryLayout<CompactOptional<Double>>.size == 8)
        #expect(MemoryLayout<CompactOptional<Date>>.size == 8)
        #expect(CompactOptional<Double>(nilLiteral: ()).value == nil)
        #expect(CompactOptional<Int64>(fitting: nil).map { $0.value == nil } == true)
        let doubles: [Double] = [0, -0.0, 1.5, .infinity, -.infinity, .nan, .greatestFiniteMagnitude, Double(bitPattern: Double.compactNilBits ^ 1)]
        for value in doubles {
            #expect(CompactOptional(fitting: value)?.value?.bitPattern == value.bitPattern)
        }
        for value: Int64 in [0, -1, .max, .min + 1] {
            #expect(CompactOptional(fitting: value)?.value == value)
        }
        let date = Date(timeIntervalSinceReferenceDate: -12.25)
        #expect(CompactOptional(fitting: date)?.value == date)
        #expect(CompactOptional(fitting: Int64.min) == nil)
        #expect(CompactOptional(fitting: Double(bitPattern: Double.compactNilBits)) == nil)
        #expect(CompactOptional(fitting: Date(timeIntervalSinceReferenceDate: Double(bitPattern: Double.compactNilBits))) == nil)
    }

    @Test func theIntegerThatStandsForNil_inAStore_isReadIntoTheBuffer() throws {
        let url = TestStores.newStoreURL()
        let store = try PersistentStore(url: url, model: TestStores.library)
        let context = store.newContext()
        let ebook = Library.Ebook(context: context)
        ebook.title = "Middlemarch"
        ebook.sizeBytes = 7
        try context.save()
        let entity = ebook.entity
        let column = try #require(entity.attribute(named: "sizeBytes")?.columnName)
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "UPDATE \(entity.tableName) SET \(column) = ?", arguments: [Int64.min])
        }

        let fetched = try #require(try store.newContext().fetch(FetchRequest<Library.Ebook>()).first)
        #expect(fetched.sizeBytes == .min)
        #expect(fetched.valueStorage == .buffer)
        #expect(fetched.title == "Middlemarch")
    }

    @Test(arguments: TestedEngine.available) func theValuesThatStandForNil_setThroughProperties_areKeptWhole(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            let ebook = Library.Ebook(context: context)
            ebook.title = "Middlemarch"
            ebook.sizeBytes = 7
            ebook.published = Date(timeIntervalSinceReferenceDate: 100)
            #expect(ebook.valueStorage == .properties)
            ebook.sizeBytes = .min
            #expect(ebook.sizeBytes == .min)
            #expect(ebook.valueStorage == .buffer)
            #expect(ebook.published == Date(timeIntervalSinceReferenceDate: 100))
            ebook.published = nil
            #expect(ebook.published == nil)
            try context.save()

            let fetched = try #require(try store.newContext().fetch(FetchRequest<Library.Ebook>()).first)
            #expect(fetched.sizeBytes == .min)
            #expect(fetched.published == nil)
            #expect(fetched.title == "Middlemarch")

            let audiobook = Library.Audiobook(context: context)
            audiobook.duration = Double(bitPattern: Double.compactNilBits)
            #expect(audiobook.duration.bitPattern == Double.compactNilBits)
            #expect(audiobook.valueStorage == .buffer)
            let date = Library.Ebook(context: context)
            #expect(date.valueStorage == .properties)
            date.published = Date(compactBits: Date.compactNilBits)
            #expect(date.published?.compactBits == Date.compactNilBits)
            #expect(date.valueStorage == .buffer)
        }
    }
}
