import DataModel
@testable import DataStore
import Foundation
import GRDB
import Library
import Testing

@Suite struct BatchRequestTests {
    typealias Author = Library.Author
    typealias Book = Library.Book
    typealias Chapter = Library.Chapter
    typealias Shelf = Library.Shelf
    typealias Tag = Library.Tag

    /// The books of a fresh context, by title.
    static func books(_ store: PersistentStore) throws -> [String: Book] {
        let books = try store.newContext().fetch(FetchRequest<Book>())
        return Dictionary(uniqueKeysWithValues: books.map { ($0.title, $0) })
    }

    /// `Z_OPT` of a row, read past the store.
    static func version(_ id: ObjectID, _ store: PersistentStore) throws -> Int64? {
        let rows = try TestStores.rows(#"SELECT "Z_OPT" FROM "\#(id.scope.entity.tableName)" WHERE "Z_PK" = \#(id.primaryKey ?? 0)"#, in: store)
        return rows.first.flatMap { Int64($0[0]) }
    }

    // MARK: Insert

    @Test(arguments: TestedEngine.available) func insert_fromDictionaries_writesEachObject_withItsDefaults(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            let existing = Author(context: context)
            existing.name = "Austen"
            try context.save()
            let result = try context.execute(BatchInsertRequest<Author>(objects: [["name": "Eliot"], ["name": "Woolf"], [:]]))
            #expect(result.count == 3)
            let names = try result.objectIDs.map { try (store.newContext().existingObject(with: $0) as? Author)?.name }
            #expect(names == ["Eliot", "Woolf", "Anonymous"], "a missing key keeps the model's default")
            #expect(result.objectIDs.map(\.primaryKey) == [2, 3, 4])
            // Keys come from Z_PRIMARYKEY, which the request moved on: a later save takes the next one.
            let next = Author(context: context)
            next.name = "Brontë"
            try context.save()
            #expect(next.objectID.primaryKey == 5)
        }
    }

    @Test(arguments: TestedEngine.available) func insert_fillingATypedObject_insertsEveryRow(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            let result = try context.execute(BatchInsertRequest<Book>(count: 1_000) { book, index in
                book.title = "Volume \(index)"
                book.pageCount = Int16(index % 500)
            })
            #expect(result.count == 1_000)
            let books = try Self.books(store)
            #expect(books.count == 1_000)
            #expect(books["Volume 777"]?.pageCount == 277)
            #expect(books["Volume 3"]?.isAvailable == true, "unset attributes have the model's defaults")
            #expect(context.registeredObjects.isEmpty, "no object stays in the context")

            var remaining = 2
            let handled = try context.execute(BatchInsertRequest<Book>(managedObjectHandler: { book in
                guard remaining > 0 else { return true }
                book.title = "Handled \(remaining)"
                remaining -= 1
                return false
            }))
            #expect(handled.count == 2)
            #expect(try Self.books(store).count == 1_002)
        }
    }

    @Test(arguments: TestedEngine.available) func insert_validatesEveryObject_namesThemByPosition_andWritesNothing(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            let austen = Author(context: context)
            austen.name = "Austen"
            try context.save()
            let request = BatchInsertRequest<Author>(objects: [["name": "Eliot"], ["name": "Austen"], ["name": NSNull()], ["name": "Eliot"]])
            var authorFailures: [BatchInsertFailure] = []
            do {
                try context.execute(request)
            } catch {
                if case BatchError.invalidInsertedObjects(let found)? = error as? BatchError { authorFailures = found }
            }
            #expect(authorFailures.map(\.index) == [1, 2, 3])
            let described = authorFailures.map(\.failure.description)
            #expect(described[0].hasSuffix("(name) is not unique; \(austen.objectID) has the same values"), "an existing object")
            #expect(described[1].hasSuffix("'name' is required"))
            #expect(described[2].contains("(name) is not unique"), "an object earlier in the request")
            let books = BatchInsertRequest<Book>(count: 3) { book, index in
                book.title = index == 1 ? "" : "Book \(index)"
                book.pageCount = index == 2 ? 20_000 : 10
            }
            var failures: [BatchInsertFailure] = []
            do {
                try context.execute(books)
            } catch {
                if case BatchError.invalidInsertedObjects(let found)? = error as? BatchError { failures = found }
            }
            #expect(failures.map(\.index) == [1, 2])
            #expect(failures.map(\.failure.description).joined().contains("'title' = \"\" is beyond minimum 1"))
            #expect(failures.map(\.failure.description).joined().contains("'pageCount' = 20000 is beyond maximum 10000"))
            #expect(try store.newContext().count(for: FetchRequest<Author>()) == 1)
            #expect(try store.newContext().count(for: FetchRequest<Book>()) == 0)
            #expect(throws: BatchError.invalidRequest(.unknownKey(entity: "Author", key: "books"))) {
                try context.execute(BatchInsertRequest<Author>(objects: [["books": [String]()]]))
            }
        }
    }

    // MARK: Update

    @Test(arguments: TestedEngine.available) func update_setsConstantsAndExpressions_onTheMatchingRows_andMovesTheirVersion(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            for (title, price, pages) in [("Emma", 8, 100), ("Persuasion", 12, 200), ("Beloved", 5, 7)] {
                let book = Book(context: context)
                book.title = title
                book.price = Decimal(price)
                book.pageCount = Int16(pages)
            }
            try context.save()
            var request = BatchUpdateRequest<Book>(predicate: try ObjectPredicate(format: "price < 10"))
            request.propertiesToUpdate = [
                "price": .expression(try ObjectExpression(format: "price * 1.5 + %@", 1)),
                "pageCount": .expression(try ObjectExpression(format: "pageCount / 2")),
                "legacyCode": .value(.string("B-12")),
            ]
            let result = try context.execute(request)
            #expect(result.count == 2)
            let books = try Self.books(store)
            #expect(books["Emma"]?.price == 13)
            #expect(books["Beloved"]?.price == 8.5)
            #expect(books["Beloved"]?.pageCount == 3, "integers divide as integers")
            #expect(books["Emma"]?.legacyCode == "B-12")
            #expect(books["Persuasion"]?.price == 12 && books["Persuasion"]?.legacyCode == nil)
            for id in result.objectIDs { #expect(try Self.version(id, store) == 2) }
        }
    }

    @Test(arguments: TestedEngine.available) func update_validatesTheNewValues_namesTheRows_andWritesNothing(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            var books: [Book] = []
            for (title, rating) in [("Emma", Float(1)), ("Persuasion", 4)] {
                let book = Book(context: context)
                book.title = title
                book.rating = rating
                books.append(book)
            }
            for name in ["Austen", "Eliot"] { Author(context: context).name = name }
            try context.save()

            var tooHigh = BatchUpdateRequest<Book>()
            tooHigh.propertiesToUpdate = ["rating": .expression(try ObjectExpression(format: "rating * 2"))]
            #expect(throws: BatchError.validation([.outOfRange(books[1].objectID, property: "rating", value: "8.0", bound: "maximum 5.0")])) {
                try context.execute(tooHigh)
            }
            var missing = BatchUpdateRequest<Book>(predicate: try ObjectPredicate(format: "title == 'Emma'"))
            missing.propertiesToUpdate = ["title": .value(.null)]
            #expect(throws: BatchError.validation([.missingValue(books[0].objectID, property: "title")])) { try context.execute(missing) }

            var same = BatchUpdateRequest<Author>()
            same.propertiesToUpdate = ["name": .value(.string("Woolf"))]
            #expect {
                try context.execute(same)
            } throws: { error in
                guard case BatchError.validation(let failures) = error, failures.count == 1,
                      case .uniquenessViolated(_, ["name"], _) = failures[0] else { return false }
                return true
            }
            let fresh = try Self.books(store)
            #expect(fresh["Persuasion"]?.rating == 4 && fresh["Emma"] != nil, "nothing was written")
            #expect(try store.newContext().fetch(FetchRequest<Author>()).map(\.name).sorted() == ["Austen", "Eliot"])
            for book in books { #expect(try Self.version(book.objectID, store) == 1) }

            var nonNumeric = BatchUpdateRequest<Book>()
            nonNumeric.propertiesToUpdate = ["title": .expression(try ObjectExpression(format: "price + 1"))]
            #expect(throws: BatchError.self) { try context.execute(nonNumeric) }
            var unknown = BatchUpdateRequest<Book>()
            unknown.propertiesToUpdate = ["colour": .value(.string("red"))]
            #expect(throws: BatchError.invalidRequest(.unknownKey(entity: "Book", key: "colour"))) { try context.execute(unknown) }
        }
    }

    // MARK: Delete

    @Test(arguments: TestedEngine.available) func delete_followsTheDeleteRules(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            let author = Author(context: context)
            let tag = Tag(context: context)
            let shelf = Shelf(context: context)
            let kept = Book(context: context)
            kept.title = "Kept"
            kept.author = author
            tag.addToBooks(kept)
            let gone = Book(context: context)
            gone.title = "Gone"
            gone.author = author
            tag.addToBooks(gone)
            shelf.featured = gone
            for index in 0..<3 {
                let chapter = Chapter(context: context)
                chapter.index = Int16(index)
                gone.addToChapters(chapter)
            }
            try context.save()
            let chapterIDs = gone.chapters.map(\.objectID)

            let result = try context.execute(BatchDeleteRequest(FetchRequest<Book>(predicate: try ObjectPredicate(format: "title == 'Gone'"))))
            #expect(Set(result.objectIDs) == Set([gone.objectID] + chapterIDs), "Cascade deleted the chapters")
            let fresh = store.newContext()
            #expect(try fresh.count(for: FetchRequest<Chapter>()) == 0)
            let freshAuthor = try #require(try fresh.existingObject(with: author.objectID) as? Author)
            #expect(freshAuthor.books.map(\.title) == ["Kept"])
            let freshTag = try #require(try fresh.existingObject(with: tag.objectID) as? Tag)
            #expect(freshTag.books.map(\.title) == ["Kept"], "the join-table row went")
            let freshShelf = try #require(try fresh.existingObject(with: shelf.objectID) as? Shelf)
            #expect(freshShelf.featured == nil, "Nullify cleared the one-to-one inverse")
            // The objects whose relationships changed moved on a version, as a save moves them.
            for id in [author.objectID, tag.objectID, shelf.objectID] { #expect(try Self.version(id, store) == 2) }
            #expect(try Self.version(kept.objectID, store) == 1)
            // This context saw it all: the deleted objects are gone, the others read again.
            #expect(context.registeredObject(for: gone.objectID) == nil)
            #expect(author.books.map(\.title) == ["Kept"] && shelf.featured == nil && tag.books.map(\.title) == ["Kept"])
        }
    }

    @Test(arguments: TestedEngine.available) func delete_refusedByDeny_writesNothing(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            let shelf = Shelf(context: context)
            shelf.name = "Fiction"
            let book = Book(context: context)
            book.shelf = shelf
            try context.save()
            #expect(throws: BatchError.validation([.deleteDenied(shelf.objectID, relationship: "books")])) {
                try context.execute(BatchDeleteRequest(FetchRequest<Shelf>()))
            }
            #expect(try store.newContext().count(for: FetchRequest<Shelf>()) == 1)
            // Deleting the books with the shelf leaves nothing for Deny to protect.
            let both = try context.execute(BatchDeleteRequest(objectIDs: [shelf.objectID, book.objectID]))
            #expect(both.count == 2)
            #expect(try store.newContext().count(for: FetchRequest<Shelf>()) == 0)
        }
    }

    /// Owners whose `pets` nullify; each pet's `owner` is required.
    static let petModel = Model("Pets.xcdatamodel", entities: [
        Entity("Owner", attributes: [Attribute("name", .string, isOptional: true)], relationships: [
            Relationship("pets", destination: "Pet", inverseName: "owner", inverseEntityName: "Pet", isToMany: true, isOptional: true),
        ]),
        Entity("Pet", attributes: [Attribute("name", .string, isOptional: true)], relationships: [
            Relationship("owner", destination: "Owner", inverseName: "pets", inverseEntityName: "Owner"),
        ]),
    ])

    @Test(arguments: TestedEngine.available) func delete_thatWouldLeaveARequiredToOneEmpty_isRefused(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(ManagedObjectModel(model: Self.petModel), on: engine) { store throws in
            let context = store.newContext()
            let owner = try context.insertObject(entityName: "Owner")
            let pet = try context.insertObject(entityName: "Pet")
            try pet.setValue(owner, forKey: "owner")
            try context.save()
            #expect(throws: BatchError.validation([.missingValue(pet.objectID, property: "owner")])) {
                try context.execute(BatchDeleteRequest(objectIDs: [owner.objectID]))
            }
            #expect(try store.newContext().count(for: FetchRequest<ManagedObject>(entityName: "Owner")) == 1)
            #expect(try context.execute(BatchDeleteRequest(objectIDs: [owner.objectID, pet.objectID])).count == 2)
        }
    }

    @Test(arguments: TestedEngine.available) func delete_ofIDs_rejectsTemporaryIDs_andSkipsRowsAlreadyGone(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            let author = Author(context: context)
            #expect(throws: BatchError.invalidRequest(.objectNotFound(author.objectID))) {
                try context.execute(BatchDeleteRequest(objectIDs: [author.objectID]))
            }
            try context.save()
            #expect(try context.execute(BatchDeleteRequest(objectIDs: [author.objectID])).count == 1)
            #expect(try context.execute(BatchDeleteRequest(objectIDs: [author.objectID])).count == 0)
        }
    }

    /// Expressions compute as SQLite computes them on every engine: in 64 bits (a 16-bit
    /// attribute's value may leave its range on the way), constants with constants, integer
    /// parts toward zero.
    @Test(arguments: TestedEngine.available) func expressions_computeAsSQLiteDoes(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            let book = Book(context: context)
            book.title = "Emma"
            book.pageCount = 7
            try context.save()
            for (format, expected) in [("pageCount + 40000 - 40000", Int16(7)), ("2 + 3", 5), ("pageCount * 3 / 2", 10)] {
                var request = BatchUpdateRequest<Book>()
                request.propertiesToUpdate = ["pageCount": .expression(try ObjectExpression(format: format))]
                try context.execute(request)
                let fresh = try #require(try store.newContext().existingObject(with: book.objectID) as? Book)
                #expect(fresh.pageCount == expected, "\(format)")
                var reset = BatchUpdateRequest<Book>()
                reset.propertiesToUpdate = ["pageCount": .value(.integer(7))]
                try context.execute(reset)
            }
            // -10.5 is -10, as SQLite truncates (PostgreSQL alone would round to -11): out of range.
            var negative = BatchUpdateRequest<Book>()
            negative.propertiesToUpdate = ["pageCount": .expression(try ObjectExpression(format: "0 - pageCount * 3 / 2"))]
            #expect(throws: BatchError.validation([.outOfRange(book.objectID, property: "pageCount", value: "-10", bound: "minimum 0")])) {
                try context.execute(negative)
            }
        }
    }

    /// Text comparisons with `[c]`, `[d]` and sorting by them: a request changes exactly the
    /// objects a fetch returns, on a server too, where they are judged in memory.
    @Test(arguments: TestedEngine.available) func textPredicates_chooseTheObjectsAFetchChooses(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            for title in ["Émile", "emma", "EMMA", "Beloved", "Middlemarch", "Evelina", "ember"] {
                Book(context: context).title = title
            }
            try context.save()
            let startsWithE = try ObjectPredicate(format: "title BEGINSWITH[cd] 'e'")
            let expected = try store.newContext().fetch(FetchRequest<Book>(predicate: startsWithE)).map(\.objectID)
            #expect(expected.count == 5)
            var update = BatchUpdateRequest<Book>(predicate: startsWithE)
            update.propertiesToUpdate = ["pageCount": .value(.integer(1))]
            #expect(Set(try context.execute(update).objectIDs) == Set(expected))

            var firstTwo = FetchRequest<Book>(predicate: startsWithE, sortDescriptors: [ObjectSortDescriptor("title", ascending: false, comparator: .localizedStandardCompare)])
            firstTwo.fetchLimit = 2
            firstTwo.fetchOffset = 1
            let chosen = try store.newContext().fetch(firstTwo).map(\.objectID)
            #expect(try context.execute(BatchDeleteRequest(firstTwo)).objectIDs == chosen)
            let left = try store.newContext().fetch(FetchRequest<Book>(predicate: try ObjectPredicate(format: "pageCount == 1")))
            #expect(Set(left.map(\.objectID)) == Set(expected).subtracting(chosen))
        }
    }

    // MARK: Changes

    /// A results controller on the context that runs the requests, and a second context that merges
    /// what the store publishes as it merges any save, see batch updates and deletes.
    @Test(arguments: TestedEngine.available) func contextsAndControllers_seeBatchChanges_asTheySeeSaves(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let setup = store.newContext()
            for (title, price) in [("Emma", 9), ("Persuasion", 12), ("Beloved", 15), ("Middlemarch", 20)] {
                let book = Book(context: setup)
                book.title = title
                book.price = Decimal(price)
            }
            try setup.save()
            let context = store.newContext()
            let controller = FetchedResultsController(
                fetchRequest: FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor(Book.price)]), context: context)
            let delegate = RecordingDelegate<Book>()
            controller.delegate = delegate
            try controller.performFetch()
            let other = store.newContext()
            let beloved = try #require(try other.fetch(FetchRequest<Book>(predicate: try ObjectPredicate(format: "title == 'Beloved'"))).first)
            let published = ChangeSetCollector()
            store.addObserver { published.append($0) }

            var update = BatchUpdateRequest<Book>(predicate: try ObjectPredicate(format: "title == 'Beloved'"))
            update.propertiesToUpdate = ["price": .value(.decimal(1))]
            try context.execute(update)
            #expect(controller.fetchedObjects?.map(\.title) == ["Beloved", "Emma", "Persuasion", "Middlemarch"])
            #expect(delegate.lastChanges == ["move [0, 2] -> [0, 0]"] || delegate.lastChanges.sorted() == ["move [0, 2] -> [0, 0]", "update [0, 0]"])

            try context.execute(BatchDeleteRequest(FetchRequest<Book>(predicate: try ObjectPredicate(format: "price > 15"))))
            #expect(controller.fetchedObjects?.map(\.title) == ["Beloved", "Emma", "Persuasion"])
            #expect(delegate.lastChanges == ["delete [0, 3]"])

            #expect(published.all.count == 2)
            #expect(published.all[0].updated[beloved.objectID] == ["price"])
            for changes in published.all { other.mergeChanges(from: changes) }
            #expect(beloved.price == 1)
            #expect(try other.count(for: FetchRequest<Book>()) == 3)
        }
    }

    @Test(arguments: TestedEngine.available) func batchChanges_areRecordedInTheHistory_andReachAnotherProcessAsThemselves(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStores(TestStores.library, on: engine, history: .enabled) { store, reader in
            let context = store.newContext()
            context.transactionAuthor = "importer"
            let token = try store.currentHistoryToken()
            let delivered = ChangeSetCollector()
            reader.addObserver { delivered.append($0) }

            let inserted = try context.execute(BatchInsertRequest<Author>(objects: [["name": "Austen"], ["name": "Eliot"]]))
            var update = BatchUpdateRequest<Author>(predicate: try ObjectPredicate(format: "name == 'Eliot'"))
            update.propertiesToUpdate = ["name": .value(.string("George Eliot"))]
            try context.execute(update)
            try context.execute(BatchDeleteRequest(objectIDs: [inserted.objectIDs[0]]))

            let transactions = try store.fetchHistory(after: token)
            #expect(transactions.map(\.author) == ["importer", "importer", "importer"])
            #expect(transactions[0].changes.map(\.changeType) == [.insert, .insert])
            #expect(transactions[1].changes.map(\.updatedProperties) == [["name"]])
            #expect(transactions[2].changes.map(\.changedObjectID) == [inserted.objectIDs[0]])

            // A file's other process asks and finds them; a server's is told, and may have heard already.
            let found = try reader.checkForExternalChanges()
            if engine == .sqlite { #expect(found) }
            // Read here, not waited for: the listener runs on threads this synchronous test may hold.
            let deadline = Date().addingTimeInterval(10)
            while delivered.all.count < 3 && Date() < deadline { _ = try reader.checkForExternalChanges() }
            let changes = delivered.all
            try #require(changes.count == 3)
            #expect(changes[0].inserted == Set(inserted.objectIDs))
            #expect(changes[1].updated.keys.map(\.primaryKey) == [inserted.objectIDs[1].primaryKey])
            #expect(changes[2].deleted.map(\.primaryKey) == [inserted.objectIDs[0].primaryKey])
        }
    }
}
