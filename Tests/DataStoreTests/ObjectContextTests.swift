import DataStore
import Foundation
import GRDB
import class GeneratedBooks.Book
import GeneratedFailedBanks
import GeneratedProducts
import Library
import Testing

@Suite struct ObjectContextTests {
    /// Every attribute type round-trips through a file, stored by Core Data's rules.
    @Test(arguments: TestedEngine.available) func attributes_roundTrip_withCoreDataStorage(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            let book = Library.Ebook(context: context)
            let added = Date(timeIntervalSinceReferenceDate: 737_057_646.5)
            let identifier = UUID()
            book.added = added
            book.identifier = identifier
            book.cover = Data([0, 1, 2, 255])
            book.fileSize = 1 << 40
            book.isAvailable = false
            book.isbn = "978-0141439518"
            book.metadata = ["edition": "Penguin"]
            book.pageCount = 432
            book.price = Decimal(string: "12.5")
            book.published = Date(timeIntervalSinceReferenceDate: -5_000_000)
            book.rating = 4.5
            book.searchText = "transient"
            // Every byte is stored, a NUL included: SQLite's text holds it. PostgreSQL's cannot, and
            // the save says so before writing anything.
            book.title = "Middle\u{0}march, ou la Vie de province"
            book.website = URL(string: "https://example.org/middlemarch")
            book.weight = 0.75
            book.wordCount = 316_000
            book.fileFormat = "pdf"
            if engine == .postgreSQL {
                let refusal = ValidationFailure.unstorableValue(book.objectID, property: "title", reason: "PostgreSQL text cannot hold the character U+0000")
                #expect(throws: SaveError.validation([refusal])) { try context.save() }
                book.title = "Middlemarch, ou la Vie de province"
            }
            let title = book.title
            try context.save()

            let reread = try #require(try store.newContext().fetch(FetchRequest<Library.Ebook>()).first)
            #expect(reread.added == added)
            #expect(reread.identifier == identifier)
            #expect(reread.cover == Data([0, 1, 2, 255]))
            #expect(reread.fileSize == 1 << 40)
            #expect(reread.isAvailable == false)
            #expect(reread.isbn == "978-0141439518")
            #expect(reread.metadata == ["edition": "Penguin"])
            #expect(reread.pageCount == 432)
            #expect(reread.price == Decimal(string: "12.5"))
            #expect(reread.published == Date(timeIntervalSinceReferenceDate: -5_000_000))
            #expect(reread.rating == 4.5)
            #expect(reread.searchText == nil, "transient attributes are not stored")
            #expect(reread.title == title)
            #expect(reread.website == URL(string: "https://example.org/middlemarch"))
            #expect(reread.weight == 0.75)
            #expect(reread.wordCount == 316_000)
            #expect(reread.fileFormat == "pdf")
            #expect(reread.sizeBytes == 0, "the model's default")

            // The SQLite file holds Core Data's own storage classes; PostgreSQL its column types.
            guard engine == .sqlite, let url = store.url else { return }
            let database = try DatabaseQueue(path: url.path)
            try database.read { db in
                let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM ZITEM"))
                #expect(row["ZADDED"] == 737_057_646.5)
                #expect(row["ZIDENTIFIER"] == withUnsafeBytes(of: identifier.uuid) { Data($0) })
                #expect(row["ZISAVAILABLE"] == 0)
                #expect(row["ZWEBSITE"] == "https://example.org/middlemarch")
                #expect(row["Z_OPT"] == 1)
                #expect(row["Z_ENT"] == store.entity(named: "Ebook")?.number)
            }
        }
    }

    @Test(arguments: TestedEngine.available) func newObjects_startWithTheModelDefaults(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            let book = Library.Book(context: context)
            #expect(book.title == "Untitled")
            #expect(book.isAvailable == true)
            #expect(book.price == 0)
            #expect(book.published == Date(timeIntervalSinceReferenceDate: 0))
            #expect(book.weight == nil)
            #expect(Library.Author(context: context).name == "Anonymous")
            #expect(book.objectID.isTemporaryID)
        }
    }

    @Test(arguments: TestedEngine.available) func primaryKeys_comeFromZMAX_andVersionsCount(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.products, on: engine) { store in
            let context = store.newContext()
            let plain = Products(context: context)
            let favorite = FavoriteProducts(context: context)
            try context.save()
            #expect(plain.objectID.primaryKey == 1)
            #expect(favorite.objectID.primaryKey == 2, "a hierarchy shares one key sequence")
            #expect(!plain.objectID.isTemporaryID)
            favorite.price = 3
            try context.save()
            favorite.price = 4
            try context.save()
            #expect(try TestStores.rows(#"SELECT "Z_PK", "Z_OPT" FROM "ZPRODUCTS" ORDER BY "Z_PK""#, in: store) == [["1", "1"], ["2", "3"]])
            let maxima = try TestStores.rows(#"SELECT "Z_NAME", "Z_MAX" FROM "Z_PRIMARYKEY" WHERE "Z_NAME" LIKE '%Products' ORDER BY "Z_ENT""#, in: store)
            #expect(maxima == [["Products", "2"], ["FavoriteProducts", "0"]], "Z_MAX lives on the root row")
        }
    }

    @Test(arguments: TestedEngine.available) func fetchedObjects_areUniqued_andStartAsFaults(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.failedBanks, on: engine) { store in
            let writer = store.newContext()
            let info = FailedBankInfo(context: writer)
            info.name = "First Bank"
            let details = FailedBankDetails(context: writer)
            details.zip = 90210
            info.details = details
            try writer.save()

            let reader = store.newContext()
            let fetched = try reader.fetch(FetchRequest<FailedBankInfo>())
            #expect(fetched.count == 1)
            #expect(try reader.fetch(FetchRequest<FailedBankInfo>())[0] === fetched[0])
            #expect(reader.object(with: info.objectID) === fetched[0])
            let related = try #require(fetched[0].details)
            #expect(related.isFault, "reached through a relationship: not loaded yet")
            #expect(related.zip == 90210)
            #expect(!related.isFault)
            #expect(related.info === fetched[0])
            #expect(reader.object(with: details.objectID) === related)
        }
    }

    @Test(arguments: TestedEngine.available) func unchangedObjects_goAwayWhenUnused_andObjectsOutliveTheirContextSafely(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store in
            let writer = store.newContext()
            Book(context: writer).title = "Emma"
            try writer.save()

            var context: ObjectContext? = store.newContext()
            let id = try #require(try context?.fetch(FetchRequest<Book>()).first?.objectID)
            // Nobody holds the unchanged object: the context forgets it.
            #expect(context?.registeredObject(for: id) == nil)
            var kept: Book? = try #require(try context?.fetch(FetchRequest<Book>()).first)
            #expect(context?.registeredObject(for: id) === kept)
            // A changed object is held by the context until saved.
            weak let changed: Book? = kept
            kept?.title = "Changed"
            kept = nil
            #expect(changed?.title == "Changed")
            #expect(context?.registeredObject(for: id) === changed)
            // The context goes first: its objects see nil.
            let survivor = try #require(changed)
            context = nil
            #expect(survivor.context == nil)
            #expect(survivor.title == "Changed")
        }
    }

    @Test(arguments: TestedEngine.available) func subentityRows_materialiseAsTheirOwnClass(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.products, on: engine) { store in
            let context = store.newContext()
            Products(context: context).name = "Kettle"
            FavoriteProducts(context: context).name = "Teapot"
            try context.save()
            let all = try store.newContext().fetch(FetchRequest<Products>())
            #expect(all.map { "\(type(of: $0))" } == ["Products", "FavoriteProducts"])
            let favorites = try store.newContext().fetch(FetchRequest<FavoriteProducts>())
            #expect(favorites.map(\.name) == ["Teapot"])
            var onlyProducts = FetchRequest<Products>()
            onlyProducts.includesSubentities = false
            #expect(try store.newContext().fetch(onlyProducts).map(\.name) == ["Kettle"])
        }
    }

    @Test(arguments: TestedEngine.available) func changeTracking_reportsInsertedUpdatedDeleted(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store in
            let context = store.newContext()
            #expect(!context.hasChanges)
            let first = Book(context: context)
            let second = Book(context: context)
            #expect(context.insertedObjects == [first, second])
            try context.save()
            #expect(!context.hasChanges && !first.isInserted)
            first.title = "Changed"
            context.delete(second)
            #expect(context.updatedObjects == [first])
            #expect(context.deletedObjects == [second])
            #expect(first.isUpdated && second.isDeleted && context.hasChanges)
            try context.save()
            #expect(!context.hasChanges)
            #expect(second.context == nil)
            #expect(try store.newContext().fetch(FetchRequest<Book>()).map(\.title) == ["Changed"])
        }
    }

    @Test(arguments: TestedEngine.available) func rollback_restoresSavedValues_andForgetsInserts(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store in
            let context = store.newContext()
            let kept = Book(context: context)
            kept.title = "Kept"
            try context.save()
            kept.title = "Edited"
            let inserted = Book(context: context)
            context.delete(kept)
            context.rollback()
            #expect(kept.title == "Kept")
            #expect(!kept.isDeleted && !context.hasChanges)
            #expect(inserted.context == nil)
            #expect(try context.fetch(FetchRequest<Book>()) == [kept])
        }
    }

    @Test(arguments: TestedEngine.available) func reset_disconnectsEveryObject(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store in
            let context = store.newContext()
            let book = Book(context: context)
            try context.save()
            context.reset()
            #expect(book.context == nil)
            let again = try context.fetch(FetchRequest<Book>())
            #expect(again.count == 1 && again[0] !== book)
        }
    }

    @Test(arguments: TestedEngine.available) func refresh_reloadsFromTheStore_keepingOrDroppingLocalChanges(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store in
            let mine = store.newContext()
            let book = Book(context: mine)
            book.title = "Original"
            book.price = 10
            try mine.save()

            let theirs = store.newContext()
            let theirBook = try #require(try theirs.fetch(FetchRequest<Book>()).first)
            theirBook.title = "Theirs"
            try theirs.save()

            book.price = 20
            mine.refresh(book, mergeChanges: true)
            #expect(book.title == "Theirs")
            #expect(book.price == 20, "the local change is kept on top")
            #expect(book.isUpdated)
            mine.refresh(book, mergeChanges: false)
            #expect(book.isFault)
            #expect(book.price == 10)
            #expect(!mine.hasChanges)
        }
    }

    @Test(arguments: TestedEngine.available) func existingObject_throwsForAMissingRow(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store in
            let context = store.newContext()
            let book = Book(context: context)
            try context.save()
            let id = book.objectID
            context.delete(book)
            try context.save()
            let other = store.newContext()
            #expect(throws: ContextError.objectNotFound(id)) { try other.existingObject(with: id) }
        }
    }

    @Test(arguments: TestedEngine.available) func objectIDs_haveCoreDataURIs(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store in
            let context = store.newContext()
            let book = Book(context: context)
            try context.save()
            #expect(book.objectID.uriRepresentation.absoluteString == "x-coredata://\(store.identifier)/Book/p1")
        }
    }
}
