import DataStore
import Foundation
import Library
import Testing

/// Operators, functions and `TERNARY` in fetches, batch requests and results controllers, on
/// every engine: the objects they select are those Foundation's arithmetic selects.
@Suite struct PredicateOperatorTests {
    /// Books of the Everything model: a title, a page count (read as bits too) and a weight.
    static let shelf: [(title: String, pages: Int, weight: Double)] = [
        ("a", 1, 0.5), ("b", 2, 1.5), ("c", 3, 2.0), ("d", 4, -1.0), ("e", 6, 3.0), ("f", 8, 4.5),
    ]

    static func library(in store: PersistentStore) throws -> ObjectContext {
        let setup = store.newContext()
        for book in shelf {
            let object = try setup.insertObject(entityName: "Book")
            try object.setValue(book.title, forKey: "title")
            try object.setValue(book.pages, forKey: "pageCount")
            try object.setValue(book.weight, forKey: "weight")
            if book.pages < 4 { try object.setValue(URL(string: (book.pages < 3 ? "https://" : "http://") + book.title + ".example"), forKey: "website") }
        }
        try setup.save()
        return store.newContext()
    }

    static func titles(_ context: ObjectContext, _ format: String, _ arguments: any PredicateArgument...) throws -> String {
        let request = FetchRequest<ManagedObject>(
            entityName: "Book", predicate: try ObjectPredicate(format: format, arguments: arguments), sortDescriptors: [ObjectSortDescriptor("title")])
        return try context.fetch(request).map { $0.value(forKey: "title") as? String ?? "?" }.joined()
    }

    @Test(arguments: TestedEngine.available) func bitsAndArithmetic_selectWhatFoundationComputes(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = try Self.library(in: store)
            for (format, expected) in [
                // Bits of integers, as apps keep flags.
                ("(pageCount & 2) != 0", "bce"), ("pageCount & 4 == 4", "de"), ("bitwiseAnd:with:(pageCount, 1) == 1", "ac"),
                ("pageCount | 1 == 3", "bc"), ("pageCount ^ 1 == 2", "c"), ("pageCount << 1 == 8", "d"), ("pageCount >> 1 == 1", "bc"),
                ("~pageCount == -5", "d"), ("leftshift:by:(1, pageCount) == 64", "e"),
                // Arithmetic: integers stay integers (`7 / 4` is 1), a real makes it real, by zero is nil.
                ("pageCount - 1 > 4", "ef"), ("pageCount * weight > 10", "ef"), ("pageCount / 4 == 1", "de"),
                ("pageCount / 4.0 == 1.5", "e"), ("pageCount / 0 == nil", "abcdef"), ("modulus:by:(pageCount, 3) == 0", "ce"),
                ("-weight > 0", "d"), ("2 ** pageCount == 64", "e"), ("pageCount + weight * 2 == 12", "e"), ("weight - pageCount < -4", "d"),
                // Functions.
                ("abs(weight) == 1", "d"), ("sqrt:(weight) >= 1", "bcef"), ("floor(weight) == 1", "b"), ("ceiling:(weight) == 2", "bc"),
                ("uppercase:(title) == 'A'", "a"), ("length:(title) == 1", "abcdef"), ("now() > CAST(0, 'NSDate')", "abcdef"),
                ("TERNARY(pageCount > 4, weight, 0) > 3", "f"), ("TERNARY(weight < 0, 'neg', title) == 'neg'", "d"),
                ("chapters[SIZE] == 0 AND count:(tags) == 0", "abcdef"), ("title.length == 1", "abcdef"),
                // A number's text, as `NSNumber` writes it: a whole real without its `.0`, a Boolean as 1.
                ("pageCount.stringValue == '6'", "e"), ("weight.stringValue == '1.5'", "b"), ("weight.stringValue == '2'", "c"),
                ("weight.stringValue BEGINSWITH '-'", "d"), ("isAvailable.stringValue == '1'", "abcdef"),
                ("pageCount.stringValue.length == 1", "abcdef"), ("lowercase:(weight.stringValue) CONTAINS '.'", "abf"),
                // A URI is its text to the string operators.
                ("website BEGINSWITH 'https:'", "ab"), ("website CONTAINS[c] 'C.EXAMPLE'", "c"), ("website LIKE '*//?.example'", "abc"),
                // Constants alone are computed at once.
                ("2 + 3 * 4 == 14", "abcdef"), ("7 / 2 == 3", "abcdef"), ("7 / 2.0 == 3.5", "abcdef"), ("{1, 2, 3}[LAST] == 3", "abcdef"),
            ] {
                #expect(try Self.titles(context, format) == expected, "\(format)")
            }
            #expect(try Self.titles(context, "(pageCount & %d) == %d AND weight * %@ > %@", 2, 2, 2, 5.0) == "e")
        }
    }

    /// Collections compare element by element, values of unlike kinds are never equal (two nils
    /// are), and `median:`, `mode:` and `stddev:` compute over `{…}`: Foundation's answers, the
    /// same in SQL and in memory.
    @Test(arguments: TestedEngine.available) func collectionsAndUnlikeValues_compareAsFoundationDoes(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = try Self.library(in: store)
            let books = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
            for (format, expected) in [
                // Collections: as many elements, each equal at its place.
                ("{title, pageCount} = {'c', 3}", "c"), ("{title, pageCount} != {'c', 3}", "abdef"), ("{title} = {'c', 3}", ""),
                ("{pageCount, weight} = {4, -1}", "d"), ("{1, 2} = {1, 2.0}", "abcdef"), ("{} = {}", "abcdef"), ("{title} = title", ""),
                // Unlike kinds: `==` never holds, `!=` always, `IN` skips what cannot equal.
                ("title == 3", ""), ("title != 3", "abcdef"), ("isAvailable == 2", ""), ("isAvailable != 2", "abcdef"), ("isAvailable != 1", ""), ("isAvailable IN {2, 5}", ""),
                ("isAvailable IN {0, 2}", ""), ("isAvailable IN {1.0, 2}", "abcdef"),  // every book is available (the default) ("pageCount == 'c'", ""), ("pageCount IN {'c', 3, 4}", "cd"),
                ("title IN {'c', 3}", "c"), ("title == pageCount", ""), ("notes == pageCount", ""), ("title != weight", "abcdef"),
                // Statistics of constants.
                ("median:({3, 1, 2}) == pageCount", "b"), ("median:({1, 2, 3, 4}) == 2.5", "abcdef"), ("median:({}) == nil", "abcdef"),
                ("mode:({1, 2, 3, 3}) == {3}", "abcdef"), ("mode:({4, 1, 4, 1, 2}) = {4, 1}", "abcdef"), ("pageCount IN mode:({6, 1, 6})", "e"),
                ("stddev:({2, 4, 4, 4, 5, 5, 7, 9}) == 2.0", "abcdef"),
                (#"mode:({CAST("nan", "NSNumber"), 1, 1}) == {1}"#, "abcdef"), ("stddev:({1}) == 0", "abcdef"),
            ] {
                #expect(try Self.titles(context, format) == expected, "\(format)")
                let predicate = try ObjectPredicate(format: format)
                let inMemory = try books.filter { try predicate.evaluate(with: $0) }.compactMap { $0.value(forKey: "title") as? String }.sorted().joined()
                #expect(inMemory == expected, "\(format), in memory")
            }
            #expect(throws: ContextError.self) { try Self.titles(context, "title < 3") }
            #expect(throws: ContextError.self) { try Self.titles(context, "median:(chapters.number) > 1") }
        }
    }

    /// A fetch-request template of the model computes in generated code: its variables typed by
    /// the attribute beside them (`mask: Int16` for `pageCount & $mask`).
    @Test(arguments: TestedEngine.available) func templatesThatCompute_runFromGeneratedCode(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = try Self.library(in: store)
            let request = Everything.FetchRequests.withPageBits(mask: 2, minimum: 3.5)
            #expect(try context.fetch(request).map(\.title).sorted() == ["c", "e"], "pages with bit 2 (b, c, e), twice the weight past 3.5")
        }
    }

    /// Where the operands are of a kind arithmetic does not take, the error names it.
    @Test func operandsOfTheWrongKind_areRefusedWithTheReason() async throws {
        try await TestStores.withNewStore(TestStores.library, on: .sqlite) { store throws in
            let context = store.newContext()
            for (format, reason) in [
                ("title + 1 == 2", "+ takes numbers, not a string ('title')"),
                ("weight & 1 == 1", "& takes integers, not 'weight'"),
                ("modulus:by:(weight, 2) == 1", "modulus:by: takes integers, not 'weight'"),
                ("lowercase:(pageCount) == 'a'", "lowercase: takes text, not a number ('pageCount')"),
                ("TERNARY(pageCount > 1, title, 2) == 1", "TERNARY gives a string or a number"),
                ("chapters[FIRST] == nil", "a to-many relationship is read in a fetch by [SIZE] only"),
            ] {
                let request = FetchRequest<ManagedObject>(entityName: "Book", predicate: try ObjectPredicate(format: format))
                #expect {
                    try context.fetch(request)
                } throws: { error in
                    "\(error)".contains(reason)
                }
            }
        }
    }

    /// The same predicates select the rows a batch update changes and a results controller lists.
    @Test(arguments: TestedEngine.available) func batchRequestsAndResultsControllers_takeTheOperators(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = try Self.library(in: store)
            let update = BatchUpdateRequest<Book>(
                predicate: try ObjectPredicate(format: "(pageCount & 2) != 0"), propertiesToUpdate: ["weight": .value(.double(0))])
            #expect(try context.execute(update).count == 3)
            #expect(try Self.titles(store.newContext(), "weight == 0") == "bce")

            let request = FetchRequest<ManagedObject>(
                entityName: "Book", predicate: try ObjectPredicate(format: "pageCount * 2 > %d", 7), sortDescriptors: [ObjectSortDescriptor("title")])
            let controller = FetchedResultsController(fetchRequest: request, context: context)
            let delegate = RecordingDelegate<ManagedObject>()
            controller.delegate = delegate
            try controller.performFetch()
            #expect(controller.fetchedObjects?.map { $0.value(forKey: "title") as? String ?? "?" } == ["d", "e", "f"])
            // An object whose new page count computes past the bound joins the list when saved.
            let first = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Book", predicate: try ObjectPredicate(format: "title == 'a'"))).first)
            try first.setValue(5, forKey: "pageCount")
            try context.save()
            #expect(controller.fetchedObjects?.map { $0.value(forKey: "title") as? String ?? "?" } == ["a", "d", "e", "f"])
            #expect(delegate.lastChanges == ["insert [0, 0]"])
        }
    }
}
