import DataStore
import Foundation
import Library
import Testing

/// Fetch requests as predicate arguments (Core Data's `NSFetchRequestExpression`), run by each
/// engine as a subquery: objects, one property's values, aggregates per group, counts — in
/// fetches, in memory for unsaved changes, and in a batch delete.
@Suite struct FetchRequestExpressionTests {
    /// Books by key (their notes): `a` three times, `b` twice, `c` once, each titled by its key and
    /// page count; two authors.
    static func fill(_ context: ObjectContext) throws {
        let ann = Author(context: context), bo = Author(context: context)
        (ann.name, bo.name) = ("Ann", "Bo")
        for (key, pages, author) in [("a", 10, ann), ("a", 30, bo), ("a", 20, ann), ("b", 5, bo), ("b", 7, ann), ("c", 40, bo)] {
            let book = Book(context: context)
            (book.notes, book.pageCount, book.title, book.author) = (key, Int16(pages), "\(key)\(pages)", author)
        }
        try context.save()
    }

    static func titles(_ format: String, _ arguments: any PredicateArgument..., in context: ObjectContext) throws -> [String] {
        let request = FetchRequest<Book>(predicate: try ObjectPredicate(format: format, arguments: arguments))
        return try context.fetch(request).map(\.title).sorted()
    }

    /// The duplicate-removal idiom: the newest object of each key stays, the rest go.
    @Test(arguments: TestedEngine.available) func notInTheNewestOfEachKey_findsTheDuplicates(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            try Self.fill(store.newContext())
            var newest = FetchRequest<Book>()
            newest.propertiesToFetch = [.maximum("SELF", as: "newest")]
            newest.propertiesToGroupBy = ["notes"]
            let expression = try FetchRequestExpression(newest)
            let context = store.newContext()
            #expect(try Self.titles("NOT (SELF IN %@)", expression, in: context) == ["a10", "a30", "b5"])

            let deleted = try context.execute(BatchDeleteRequest(FetchRequest<Book>(predicate: try ObjectPredicate(format: "NOT (SELF IN %@)", expression))))
            #expect(deleted.count == 3)
            #expect(try Self.titles("TRUEPREDICATE", in: store.newContext()) == ["a20", "b7", "c40"])
        }
    }

    @Test(arguments: TestedEngine.available) func objectsOfAnotherEntity_matchAToOne(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            try Self.fill(store.newContext())
            let context = store.newContext()
            let ann = try FetchRequestExpression(FetchRequest<Author>(predicate: try ObjectPredicate(format: "name == 'Ann'")))
            #expect(try Self.titles("author IN %@", ann, in: context) == ["a10", "a20", "b7"])
            #expect(try Self.titles("NOT (author IN %@)", ann, in: context) == ["a30", "b5", "c40"])
            // A book is no author: objects of another table match nothing.
            #expect(try Self.titles("SELF IN %@", ann, in: context).isEmpty)
        }
    }

    @Test(arguments: TestedEngine.available) func valuesCountsAndAggregates_compareAsTheirKind(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            try Self.fill(store.newContext())
            let context = store.newContext()
            var keysOfLongBooks = FetchRequest<Book>(predicate: try ObjectPredicate(format: "pageCount >= 30"))
            keysOfLongBooks.propertiesToFetch = ["notes"]
            #expect(try Self.titles("notes IN %@", FetchRequestExpression(keysOfLongBooks), in: context) == ["a10", "a20", "a30", "c40"])

            let authors = try FetchRequestExpression(FetchRequest<Author>(), countOnly: true)
            #expect(try Self.titles("pageCount < %@", authors, in: context) == [])
            #expect(try Self.titles("%@ * 4 > pageCount", authors, in: context) == ["b5", "b7"])

            var longest = FetchRequest<Book>()
            longest.propertiesToFetch = [.maximum("pageCount", as: "longest")]
            #expect(try Self.titles("pageCount == %@", FetchRequestExpression(longest), in: context) == ["c40"])

            var averagePerKey = FetchRequest<Book>()
            averagePerKey.propertiesToFetch = [.average("pageCount", as: "mean")]
            averagePerKey.propertiesToGroupBy = ["notes"]
            // The means are 20, 6 and 40.
            #expect(try Self.titles("pageCount IN %@", FetchRequestExpression(averagePerKey), in: context) == ["a20", "c40"])
        }
    }

    /// A to-one's objects compare with rows of its destination; one object (an aggregate of
    /// `SELF` without groups) is the right of `IN`; Booleans' extremes are Booleans; variables of
    /// the fetch's own predicate are substituted with the rest.
    @Test(arguments: TestedEngine.available) func toOnesExtremesAndVariables(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            try Self.fill(store.newContext())
            let context = store.newContext()
            let authorsOfLongBooks = PredicateFetch(
                entityName: "Book", predicate: try ObjectPredicate(format: "pageCount >= 30"), result: .values(keyPath: "author"))
            #expect(try Self.titles("author IN %@", authorsOfLongBooks, in: context) == ["a30", "b5", "c40"])
            #expect(try Self.titles("SELF IN %@", authorsOfLongBooks, in: context).isEmpty, "authors are no books")

            let newest = PredicateFetch(entityName: "Book", result: .values(keyPath: "SELF", function: .max))
            #expect(try Self.titles("SELF IN %@", newest, in: context) == ["c40"])
            #expect(throws: ContextError.self) { try Self.titles("SELF == %@", newest, in: context) }

            let available = PredicateFetch(entityName: "Book", result: .values(keyPath: "isAvailable", function: .max, groupedBy: ["notes"]))
            #expect(try Self.titles("isAvailable IN %@", available, in: context).count == 6)

            let longerThan = PredicateFetch(entityName: "Book", predicate: try ObjectPredicate(format: "pageCount > $minimum"))
            let predicate = try ObjectPredicate(format: "SELF IN %@", longerThan)
            #expect(predicate.substitutionVariables == ["minimum"])
            let request = FetchRequest<Book>(predicate: predicate.withSubstitutionVariables(["minimum": 20]))
            #expect(try context.fetch(request).map(\.title).sorted() == ["a30", "c40"])
        }
    }

    /// An unsaved change is judged in memory by the same subquery, on the rows saved.
    @Test(arguments: TestedEngine.available) func unsavedChanges_areJudgedInMemory(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            try Self.fill(store.newContext())
            let context = store.newContext()
            var titlesOfBs = FetchRequest<Book>(predicate: try ObjectPredicate(format: "notes == 'b'"))
            titlesOfBs.propertiesToFetch = ["title"]
            let expression = try FetchRequestExpression(titlesOfBs)
            let c40 = try #require(try context.fetch(FetchRequest<Book>(predicate: try ObjectPredicate(format: "title == 'c40'"))).first)
            c40.title = "b5"
            #expect(try Self.titles("title IN %@", expression, in: context) == ["b5", "b5", "b7"])
            // An unsaved object is not among the subquery's results, as in Core Data.
            let fresh = Book(context: context)
            (fresh.notes, fresh.title) = ("b", "b99")
            #expect(try Self.titles("title IN %@", expression, in: context) == ["b5", "b5", "b7"])
        }
    }

    /// A results controller whose predicate holds a fetch looks again when an object of the
    /// fetched entity changes: the fetch's results, and with them any row, may have changed.
    @Test(arguments: TestedEngine.available) func aResultsController_followsTheFetchedEntity(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            try Self.fill(store.newContext())
            let context = store.newContext()
            let chosen = try FetchRequestExpression(FetchRequest<Author>(predicate: try ObjectPredicate(format: "name IN {'Ann', 'Cy'}")))
            let request = FetchRequest<Book>(predicate: try ObjectPredicate(format: "author IN %@", chosen), sortDescriptors: [ObjectSortDescriptor("title")])
            let controller = FetchedResultsController(fetchRequest: request, context: context)
            let delegate = RecordingDelegate<Book>()
            controller.delegate = delegate
            try controller.performFetch()
            func titles() -> [String] { controller.fetchedObjects.map { $0.map(\.title) } ?? [] }
            #expect(titles() == ["a10", "a20", "b7"])
            let bo = try #require(try context.fetch(FetchRequest<Author>(predicate: try ObjectPredicate(format: "name == 'Bo'"))).first)
            bo.name = "Cy"
            try context.save()
            #expect(titles() == ["a10", "a20", "a30", "b5", "b7", "c40"])
            #expect(delegate.lastChanges == ["insert [0, 2]", "insert [0, 3]", "insert [0, 5]"])
        }
    }

    @Test func stringOperatorsInAFetch_runOnSQLite_andAreRefusedOnAServer() async throws {
        for engine in TestedEngine.available {
            try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
                try Self.fill(store.newContext())
                let context = store.newContext()
                let a = try FetchRequestExpression(FetchRequest<Author>(predicate: try ObjectPredicate(format: "name BEGINSWITH[c] 'a'")))
                if engine == .sqlite {
                    #expect(try Self.titles("author IN %@", a, in: context) == ["a10", "a20", "b7"])
                } else {
                    #expect(throws: ContextError.self) { try Self.titles("author IN %@", a, in: context) }
                }
            }
        }
    }

    @Test func requestsASubqueryCannotBe_areErrors() throws {
        var two = FetchRequest<Book>()
        two.propertiesToFetch = ["notes", "title"]
        #expect(throws: ContextError.invalidFetch("a fetch request of Book as an expression can give one property's values, not those of 2")) {
            try FetchRequestExpression(two)
        }
        var limited = FetchRequest<Book>()
        limited.fetchLimit = 3
        #expect(throws: ContextError.self) { try FetchRequestExpression(limited) }
        var grouped = FetchRequest<Book>()
        grouped.propertiesToGroupBy = ["notes"]
        #expect(throws: ContextError.self) { try FetchRequestExpression(grouped) }
    }

    @Test func misplacedFetches_areErrorsNamingWhy() async throws {
        try await TestStores.withNewStore(TestStores.library, on: .sqlite) { store throws in
            let context = store.newContext()
            let books = try FetchRequestExpression(FetchRequest<Book>())
            #expect(throws: ContextError.self) { try Self.titles("title == %@", books, in: context) }
            var titles = FetchRequest<Book>()
            titles.propertiesToFetch = ["title"]
            // Objects looked for among strings.
            #expect(throws: ContextError.self) { try Self.titles("SELF IN %@", FetchRequestExpression(titles), in: context) }
            #expect(throws: ContextError.self) {
                try Self.titles("SELF IN %@", PredicateFetch(entityName: "Nothing"), in: context)
            }
        }
    }
}
