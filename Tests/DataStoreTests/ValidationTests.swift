import DataModel
import DataStore
import Foundation
import class GeneratedBooks.Book
import Library
import Testing

@Suite struct ValidationTests {
    typealias Author = Library.Author
    typealias Book = Library.Book

    @Test(arguments: TestedEngine.available) func everyBrokenRule_isReportedTogether_andNothingIsWritten(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            let book = Book(context: context)
            book.pageCount = 20_000  // maximum 10000
            book.rating = -1  // minimum 0
            book.title = ""  // minimum length 1
            book.isbn = "not an isbn"  // [0-9X-]{10,17}
            book.published = Date(timeIntervalSinceReferenceDate: 4_000_000_000)  // past the maximum date
            let chapter = Library.Chapter(context: context)  // `book` is required
            let latest = AttributeValue.date(Date(timeIntervalSinceReferenceDate: 3_155_760_000))
            #expect(throws: SaveError.validation([  // objects in insertion order, properties in slot order
                .patternMismatch(book.objectID, property: "isbn", value: "\"not an isbn\""),
                .outOfRange(book.objectID, property: "pageCount", value: "20000", bound: "maximum 10000"),
                .outOfRange(book.objectID, property: "published", value: "\(AttributeValue.date(book.published!))", bound: "maximum \(latest)"),
                .outOfRange(book.objectID, property: "rating", value: "-1.0", bound: "minimum 0.0"),
                .outOfRange(book.objectID, property: "title", value: "\"\"", bound: "minimum 1"),
                .missingValue(chapter.objectID, property: "book"),
            ])) {
                try context.save()
            }
            #expect(try store.newContext().fetch(FetchRequest<Book>()).isEmpty)
        }
    }

    @Test(arguments: TestedEngine.available) func requiredAttribute_withoutValue_fails(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            let author = Author(context: context)
            try author.setAttributeValue(.null, forKey: "name")
            #expect(throws: SaveError.validation([.missingValue(author.objectID, property: "name")])) { try context.save() }
        }
    }

    @Test(arguments: TestedEngine.available) func toManyCount_isChecked(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            let book = Book(context: context)
            for _ in 0..<501 {
                let chapter = Library.Chapter(context: context)
                book.addToChapters(chapter)
            }
            #expect(throws: SaveError.validation([.countOutOfRange(book.objectID, property: "chapters", count: 501)])) { try context.save() }
        }
    }

    @Test(arguments: TestedEngine.available) func uniquenessConstraint_namesTheConflictingObject(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let first = store.newContext()
            let austen = Author(context: first)
            austen.name = "Jane Austen"
            try first.save()

            let second = store.newContext()
            let duplicate = Author(context: second)
            duplicate.name = "Jane Austen"
            #expect(throws: SaveError.validation([
                .uniquenessViolated(duplicate.objectID, constraint: ["name"], conflictingObject: austen.objectID),
            ])) { try second.save() }
            #expect(duplicate.objectID.isTemporaryID, "a failed save leaves the objects as they were")
            duplicate.name = "Mary Shelley"
            try second.save()
            #expect(try store.newContext().fetch(FetchRequest<Author>()).count == 2)
        }
    }

    /// Unique values judged as the save leaves them, not in the order the objects changed: a name
    /// passed from one object to another, and a deleted object's values taken by a new one, save.
    @Test(arguments: TestedEngine.available) func uniqueValues_passedOnOrTakenFromADeletedObject_save(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            let (first, second, leaving) = (Author(context: context), Author(context: context), Author(context: context))
            (first.name, second.name, leaving.name) = ("First", "Second", "Leaving")
            try context.save()

            first.name = "Second"  // changed first, while `second` still has the name
            second.name = "Third"
            context.delete(leaving)
            let arriving = Author(context: context)
            arriving.name = "Leaving"
            try context.save()
            let names = try store.newContext().fetch(FetchRequest<Author>()).compactMap(\.name).sorted()
            #expect(names == ["Leaving", "Second", "Third"])
        }
    }

    /// The validation failures saving `context` fails with; an issue when it saves or fails otherwise.
    static func validationFailures(saving context: ObjectContext) -> [ValidationFailure] {
        do throws(SaveError) {
            try context.save()
            Issue.record("the save should fail")
        } catch {
            if case .validation(let failures) = error { return failures }
            Issue.record("\(error)")
        }
        return []
    }

    /// A save fails for the objects that clash as it leaves them, whatever order the engine writes
    /// them in: one giving up a value and taking another's fails, and a new object taking the
    /// value it gave up is not blamed for the value it could not give up.
    @Test(arguments: TestedEngine.available) func uniqueValues_clashing_failForTheClashAlone(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            // Made and changed in this order, so that both engines write `other` before `held`.
            let (other, held) = (Author(context: context), Author(context: context))
            (other.name, held.name) = ("Other", "Held")
            try context.save()

            other.name = "Taken"
            held.name = "Taken"
            let newcomer = Author(context: context)
            newcomer.name = "Held"
            #expect(throws: SaveError.validation([
                .uniquenessViolated(held.objectID, constraint: ["name"], conflictingObject: other.objectID),
            ])) { try context.save() }
            let names = try store.newContext().fetch(FetchRequest<Author>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("name")])).compactMap(\.name)
            #expect(names == ["Held", "Other"])
        }
    }

    /// Objects swapping values refuse each other in a ring with no clash at its end: both are
    /// named, beside a clash elsewhere in the same save.
    @Test(arguments: TestedEngine.available) func uniqueValues_swappedBesideAClash_allNamed(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            let (first, second, third, fourth) = (Author(context: context), Author(context: context), Author(context: context), Author(context: context))
            (first.name, second.name, third.name, fourth.name) = ("First", "Second", "Third", "Fourth")
            try context.save()

            (first.name, second.name, third.name) = ("Second", "First", "Fourth")
            let failures = Self.validationFailures(saving: context)
            let expected: [ValidationFailure] = [
                .uniquenessViolated(first.objectID, constraint: ["name"], conflictingObject: second.objectID),
                .uniquenessViolated(second.objectID, constraint: ["name"], conflictingObject: first.objectID),
                .uniquenessViolated(third.objectID, constraint: ["name"], conflictingObject: fourth.objectID),
            ]
            #expect(Set(failures.map(\.description)) == Set(expected.map(\.description)) && failures.count == 3, "\(failures)")
        }
    }

    /// A ring of swapped values is named whole even when one of its objects also clashes with an
    /// object outside it: fixing that clash leaves the swap.
    @Test(arguments: TestedEngine.available) func uniqueValues_swappedByAnObjectThatAlsoClashes_allNamed(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            let author = Author(context: context)
            author.name = "Jane Austen"
            let books = try (1...3).map { number in
                let book = try context.insertObject(entityName: "Book")
                try book.setValue("Volume \(number)", forKey: "title")
                try book.setValue("000000000\(number)", forKey: "isbn")
                try book.setValue(author, forKey: "author")
                return book
            }
            try context.save()

            let (first, second, outside) = (books[0], books[1], books[2])
            try first.setValue("0000000002", forKey: "isbn")
            try second.setValue("0000000001", forKey: "isbn")
            try first.setValue("Volume 3", forKey: "title")  // the same title and author as `outside`
            let failures = Self.validationFailures(saving: context)
            let expected: [ValidationFailure] = [
                .uniquenessViolated(first.objectID, constraint: ["isbn"], conflictingObject: second.objectID),
                .uniquenessViolated(first.objectID, constraint: ["title", "author"], conflictingObject: outside.objectID),
                .uniquenessViolated(second.objectID, constraint: ["isbn"], conflictingObject: first.objectID),
            ]
            #expect(Set(failures.map(\.description)) == Set(expected.map(\.description)) && failures.count == 3, "\(failures)")
        }
    }

    /// Two objects swapping unique values need a moment where both hold one: the save fails, names
    /// the objects, and writes nothing.
    @Test(arguments: TestedEngine.available) func uniqueValues_swapped_failWithoutWriting(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store in
            let context = store.newContext()
            let (first, second) = (Author(context: context), Author(context: context))
            (first.name, second.name) = ("First", "Second")
            try context.save()

            (first.name, second.name) = ("Second", "First")
            #expect(throws: SaveError.validation([
                .uniquenessViolated(first.objectID, constraint: ["name"], conflictingObject: second.objectID),
                .uniquenessViolated(second.objectID, constraint: ["name"], conflictingObject: first.objectID),
            ])) { try context.save() }
            let names = try store.newContext().fetch(FetchRequest<Author>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("name")])).compactMap(\.name)
            #expect(names == ["First", "Second"])
            #expect(first.isUpdated && second.isUpdated)
        }
    }
}

/// A to-many's bounds, as Core Data checks them: on a value that is there. An optional to-many may
/// be empty whatever its minimum; a required one may be empty unless its minimum says otherwise, as
/// SwiftData's required `[T] = []` relationships are in the stores it writes.
@Suite struct ToManyBoundsTests {
    static func model(optional: Bool, minCount: Int?) -> ManagedObjectModel {
        ManagedObjectModel(model: MigrationSupport.version("V1", [
            Entity("Shelf", relationships: [
                Relationship("books", destination: "Book", inverseName: "shelf", inverseEntityName: "Book", isToMany: true,
                             minCount: minCount, isOptional: optional),
            ]),
            Entity("Book", relationships: [Relationship("shelf", destination: "Shelf", inverseName: "books", inverseEntityName: "Shelf", isOptional: true)]),
        ]))
    }

    /// Whether a shelf with `books` books saves.
    static func saves(optional: Bool, minCount: Int?, books: Int) throws -> Bool {
        let context = try PersistentStore.inMemory(model: model(optional: optional, minCount: minCount)).newContext()
        let shelf = try context.insertObject(entityName: "Shelf")
        let placed = try (0..<books).map { _ in try context.insertObject(entityName: "Book") }
        try shelf.setValue(placed, forKey: "books")
        do {
            try context.save()
            return true
        } catch {
            return false
        }
    }

    @Test func theBounds_applyToAValueThatIsThere() throws {
        #expect(try Self.saves(optional: false, minCount: nil, books: 0), "a required to-many may be empty")
        #expect(try Self.saves(optional: true, minCount: 2, books: 0), "an optional one, whatever its minimum")
        #expect(try !Self.saves(optional: true, minCount: 2, books: 1))
        #expect(try Self.saves(optional: true, minCount: 2, books: 2))
        #expect(try !Self.saves(optional: false, minCount: 2, books: 0))
    }
}
