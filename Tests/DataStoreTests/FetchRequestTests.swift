import DataStore
import Foundation
import GRDB
import GeneratedBooks
import GeneratedFailedBanks
import Testing

/// Fetch requests with predicates, sort descriptors, limits, pending changes and batches.
@Suite struct FetchRequestTests {
    /// The given titles and prices saved in `store`, a Books store, and a fresh context on it.
    static func books(_ books: [(String, Double)], in store: PersistentStore) throws -> ObjectContext {
        let setup = store.newContext()
        for (title, price) in books {
            let book = Book(context: setup)
            book.title = title
            book.price = price
        }
        try setup.save()
        return store.newContext()
    }

    static func titles(_ context: ObjectContext, _ format: String, _ arguments: any PredicateArgument..., sortedBy sort: [ObjectSortDescriptor] = [ObjectSortDescriptor("title")]) throws -> [String] {
        var request = FetchRequest<Book>(predicate: try ObjectPredicate(format: format, arguments: arguments), sortDescriptors: sort)
        request.includesPendingChanges = true
        return try context.fetch(request).map(\.title)
    }

    @Test(arguments: TestedEngine.available) func predicateSortLimitAndOffset(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let context = try Self.books([("Emma", 9), ("Persuasion", 12), ("Middlemarch", 20), ("Ulysses", 30), ("Beloved", 15)], in: store)
            var request = FetchRequest<Book>(predicate: try ObjectPredicate(format: "price < %@", 25), sortDescriptors: [ObjectSortDescriptor("price", ascending: false)])
            #expect(try context.fetch(request).map(\.title) == ["Middlemarch", "Beloved", "Persuasion", "Emma"])
            request.fetchOffset = 1
            request.fetchLimit = 2
            #expect(try context.fetch(request).map(\.title) == ["Beloved", "Persuasion"])
            #expect(try context.count(for: request) == 2)
            #expect(try context.fetchObjectIDs(request) == context.fetch(request).map(\.objectID))
        }
    }

    @Test(arguments: TestedEngine.available) func integersCompareWithFractionsByValue(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let setup = store.newContext()
            for count in [2, 3] {
                let book = try setup.insertObject(entityName: "Book")
                try book.setValue(count, forKey: "pageCount")
            }
            try setup.save()
            let context = store.newContext()
            func pageCounts(_ format: String) throws -> [Int64] {
                var request = FetchRequest<ManagedObject>(entityName: "Book")
                request.predicate = try ObjectPredicate(format: format)
                request.sortDescriptors = [ObjectSortDescriptor("pageCount")]
                let fromSQL = try context.fetch(request).map { $0.value(forKey: "pageCount") as? Int64 ?? -1 }
                request.predicate = nil
                let inMemory = try context.fetch(request).filter { try ObjectPredicate(format: format).evaluate(with: $0) }.map { $0.value(forKey: "pageCount") as? Int64 ?? -1 }
                #expect(fromSQL == inMemory, "\(format)")
                return fromSQL
            }
            #expect(try pageCounts("pageCount < 2.5") == [2])
            #expect(try pageCounts("pageCount > 2.5") == [3])
            #expect(try pageCounts("pageCount == 2.0") == [2])
            #expect(try pageCounts("pageCount IN {2.5, 3}") == [3])
            #expect(try pageCounts("pageCount BETWEEN {2.5, 9}") == [3])
            #expect(try pageCounts("pageCount < 1e300") == [2, 3])
            #expect(try pageCounts("pageCount > -1e300 AND pageCount != CAST('2.5', 'NSDecimalNumber')") == [2, 3])
            // A number beyond every integer is refused, not rounded or trapped on.
            let book = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book"))[0]
            #expect(throws: ContextError.self) { try book.setValue(1e300, forKey: "pageCount") }
        }
    }

    /// A constant holding U+0000 is compared whole, not cut there as a C string would be, by every
    /// operator. SQLite stores such text, PostgreSQL none: there it matches nothing, and orders as
    /// it would among the text there is.
    @Test(arguments: TestedEngine.available) func textWithU0000_comparesWhole(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let stored = engine == .sqlite ? ["a", "a\u{0}b", "b"] : ["a", "b"]
            let context = try Self.books(stored.map { ($0, 1) }, in: store)
            let cases: [(format: String, argument: any PredicateArgument, matches: [String])] = [
                ("title == %@", "a\u{0}b", ["a\u{0}b"]),
                ("title != %@", "a\u{0}b", ["a", "b"]),
                ("title < %@", "a\u{0}b", ["a"]),
                ("title > %@", "a\u{0}", ["a\u{0}b", "b"]),
                ("title IN %@", ["a\u{0}b", "b"], ["a\u{0}b", "b"]),
                ("title BETWEEN %@", ["a\u{0}", "b"], ["a\u{0}b", "b"]),
                ("title CONTAINS %@", "a\u{0}b", ["a\u{0}b"]),
                ("title BEGINSWITH[c] %@", "A\u{0}", ["a\u{0}b"]),
            ]
            for (format, argument, matches) in cases {
                let expected = matches.filter(stored.contains)
                #expect(try Self.titles(context, format, argument) == expected, "\(format)")
                let request = FetchRequest<Book>(predicate: try ObjectPredicate(format: format, arguments: [argument]))
                #expect(try store.newContext().count(for: request) == expected.count, "\(format)")
            }
        }
    }

    @Test(arguments: TestedEngine.available) func stringModifiers_foldCaseAndDiacritics(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let context = try Self.books([("café", 1), ("CAFE", 2), ("cafe\u{301}", 3), ("Cafeteria", 4), ("Straße", 5)], in: store)
            #expect(try Self.titles(context, "title == 'CAFE'") == ["CAFE"])
            #expect(try Self.titles(context, "title ==[c] 'cafe'") == ["CAFE"])
            #expect(try Self.titles(context, "title ==[cd] 'cafe'", sortedBy: [ObjectSortDescriptor("price")]) == ["café", "CAFE", "cafe\u{301}"])
            #expect(try Self.titles(context, "title ==[c] 'CAFÉ'", sortedBy: [ObjectSortDescriptor("price")]) == ["café", "cafe\u{301}"])
            #expect(try Self.titles(context, "title BEGINSWITH[cd] 'CAFE'").count == 4)
            #expect(try Self.titles(context, "title CONTAINS[c] 'SSE'") == [])
            #expect(try Self.titles(context, "title CONTAINS[c] 'ASSE'") == [])
            #expect(try Self.titles(context, "title ENDSWITH[c] 'SSE'") == [])
            #expect(try Self.titles(context, "title ENDSWITH 'ße'") == ["Straße"])
            #expect(try Self.titles(context, "title LIKE[c] 'caf?'") == ["CAFE", "cafe\u{301}", "café"])
            #expect(try Self.titles(context, "title LIKE 'C*a'") == ["Cafeteria"])
            #expect(try Self.titles(context, "title MATCHES '[A-Z].*'") == ["CAFE", "Cafeteria", "Straße"])
            #expect(try Self.titles(context, "title MATCHES[c] 'caf'") == [])
            #expect(try Self.titles(context, "NOT title BEGINSWITH[cd] 'caf'") == ["Straße"])
        }
    }

    @Test(arguments: TestedEngine.available) func like_withBackslashes_matchesWildcardsAsThemselves(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let context = try Self.books([("a*b", 1), ("axb", 2), ("a?", 3), ("ab", 4), (#"a\b"#, 5), ("A*B", 6), (#"a\"#, 7)], in: store)
            // In the format's quoted text a backslash is written twice; an argument holds it as is.
            #expect(try Self.titles(context, #"title LIKE 'a\\*b'"#) == ["a*b"])
            #expect(try Self.titles(context, "title LIKE %@", #"a\*b"#) == ["a*b"])
            #expect(try Self.titles(context, "title LIKE %@", "a*b", sortedBy: [ObjectSortDescriptor("price")]) == ["a*b", "axb", "ab", #"a\b"#])
            #expect(try Self.titles(context, "title LIKE %@", #"a\?"#) == ["a?"])
            #expect(try Self.titles(context, "title LIKE %@", #"a\\b"#) == [#"a\b"#])
            #expect(try Self.titles(context, "title LIKE[c] %@", #"a\*b"#, sortedBy: [ObjectSortDescriptor("price")]) == ["a*b", "A*B"])
            // A backslash that ends the pattern matches itself.
            #expect(try Self.titles(context, "title LIKE %@", #"a\"#) == [#"a\"#])
        }
    }

    @Test(arguments: TestedEngine.available) func comparisonsOfOtherThanStrings_takeFoundationsCoercions(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let context = try Self.books([("one", 1), ("zero", 0), ("half", 0.5)], in: store)
            // `YES` and `NO` are the numbers 1 and 0.
            #expect(try Self.titles(context, "price == YES") == ["one"])
            #expect(try Self.titles(context, "price < YES AND price != NO") == ["half"])
            #expect(try Self.titles(context, "price IN {NO, YES}", sortedBy: [ObjectSortDescriptor("price")]) == ["zero", "one"])
            // `[c]` and `[d]` change nothing but comparisons of text.
            #expect(try Self.titles(context, "price ==[c] 1") == ["one"])
            #expect(try Self.titles(context, "price >[cd] 0.25", sortedBy: [ObjectSortDescriptor("price")]) == ["half", "one"])
            #expect(try Self.titles(context, "price IN[c] {0, 1}", sortedBy: [ObjectSortDescriptor("price")]) == ["zero", "one"])
        }
    }

    @Test(arguments: TestedEngine.available) func constantsOnTheLeft_andTextOnTheRightOfIN_readAsFoundationReadsThem(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let context = try Self.books([("war", 1), ("peace", 2), ("War and Peace", 3)], in: store)
            let byPrice = [ObjectSortDescriptor("price")]
            // A string on the right of IN is searched: the left is a substring of it.
            #expect(try Self.titles(context, "title IN 'war and peace'", sortedBy: byPrice) == ["war", "peace"])
            #expect(try Self.titles(context, "title IN[c] %@", "WAR AND PEACE", sortedBy: byPrice) == ["war", "peace", "War and Peace"])
            #expect(try Self.titles(context, "%@ CONTAINS title", "a war", sortedBy: byPrice) == ["war"])
            #expect(try Self.titles(context, "%@ BEGINSWITH[c] title", "PEACE TIME") == ["peace"])
            // A collection on the left of CONTAINS holds the right.
            #expect(try Self.titles(context, "%@ CONTAINS title", ["peace", "love"]) == ["peace"])
            #expect(try Self.titles(context, "{'war', 'love'} CONTAINS title") == ["war"])
            // Constants alone are judged as Foundation judges them, on every engine.
            for (format, holds) in [
                ("'ell' IN 'hello'", true), ("3 IN {1, 2, 3}", true), ("3 IN {1, 2, 3.0}", true), ("4 IN {1, 2, 3}", false),
                ("5 BETWEEN {1, 10}", true), ("50 BETWEEN {1, 10}", false), ("5 < 10", true), ("'b' > 'a'", true), ("'A' ==[c] 'a'", true),
            ] {
                #expect(try Self.titles(context, format).count == (holds ? 3 : 0), "\(format)")
            }
            // ANY, ALL and NONE over one value take it as the one element.
            #expect(try Self.titles(context, "ANY price > 2") == ["War and Peace"])
            #expect(try Self.titles(context, "ALL price > 2") == ["War and Peace"])
            #expect(try Self.titles(context, "NONE price > 1", sortedBy: byPrice) == ["war"])
        }
    }

    @Test(arguments: TestedEngine.available) func localizedStandardCompare_ordersNumbersInsideStringsByValue(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let context = try Self.books([("file10", 1), ("file9", 2), ("File2", 3), ("éclair", 4), ("Eclair", 5), ("file09", 6)], in: store)
            let sorted = try Self.titles(context, "TRUEPREDICATE", sortedBy: [ObjectSortDescriptor("title", comparator: .localizedStandardCompare)])
            #expect(sorted == ["Eclair", "éclair", "File2", "file09", "file9", "file10"])
            let plain = try Self.titles(context, "TRUEPREDICATE", sortedBy: [ObjectSortDescriptor("title")])
            #expect(plain == ["Eclair", "File2", "file09", "file10", "file9", "éclair"])
        }
    }

    @Test(arguments: TestedEngine.available) func pendingChanges_areJudgedByTheirCurrentValues(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let context = try Self.books([("Emma", 9), ("Persuasion", 12), ("Middlemarch", 20)], in: store)
            let all = try context.fetch(FetchRequest<Book>())
            all.first { $0.title == "Middlemarch" }?.price = 5
            context.delete(try #require(all.first { $0.title == "Emma" }))
            let new = Book(context: context)
            new.title = "Beloved"
            new.price = 1
            let sorted = [ObjectSortDescriptor("price")]
            #expect(try Self.titles(context, "price < 15", sortedBy: sorted) == ["Beloved", "Middlemarch", "Persuasion"])
            var request = FetchRequest<Book>(predicate: try ObjectPredicate(format: "price < 15"), sortDescriptors: sorted)
            request.fetchLimit = 2
            #expect(try context.fetch(request).map(\.title) == ["Beloved", "Middlemarch"])
            #expect(try context.count(for: request) == 2)
            request.includesPendingChanges = false
            request.fetchLimit = 0
            #expect(try context.fetch(request).map(\.title) == ["Emma", "Persuasion"])
            #expect(try context.count(for: request) == 2)
        }
    }

    @Test(arguments: TestedEngine.available) func pendingChangeOfARelatedObject_changesTheMatch(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.failedBanks, on: engine) { store throws in
            let context = store.newContext()
            for (name, day) in [("First", 10.0), ("Second", 20.0)] {
                let bank = FailedBankInfo(context: context)
                bank.name = name
                let details = FailedBankDetails(context: context)
                details.closeDate = Date(timeIntervalSinceReferenceDate: day * 86_400)
                bank.details = details
            }
            try context.save()
            let request = FetchRequest<FailedBankInfo>(
                predicate: try ObjectPredicate(format: "details.closeDate > %@", Date(timeIntervalSinceReferenceDate: 15 * 86_400)),
                sortDescriptors: [ObjectSortDescriptor("details.closeDate", ascending: false)])
            #expect(try context.fetch(request).map(\.name) == ["Second"])
            let first = try #require(try context.fetch(FetchRequest<FailedBankInfo>()).first { $0.name == "First" })
            first.details?.closeDate = Date(timeIntervalSinceReferenceDate: 30 * 86_400)
            #expect(try context.fetch(request).map(\.name) == ["First", "Second"])
        }
    }

    @Test(arguments: TestedEngine.available) func invalidRequests_areTypedErrors(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let context = try Self.books([("Emma", 9)], in: store)
            func error(_ format: String, _ arguments: any PredicateArgument...) throws -> ContextError? {
                let request = FetchRequest<Book>(predicate: try ObjectPredicate(format: format, arguments: arguments))
                switch Result(catching: { () throws(ContextError) in try context.fetch(request) }) {
                case .success: return nil
                case .failure(let error): return error
                }
            }
            #expect(try error("author == nil") == .unknownKeyPath(entity: "Book", keyPath: "author"))
            #expect(try error("title.words == 1") == .unknownKeyPath(entity: "Book", keyPath: "title.words"))
            #expect(try error("price < $MAX") == .unboundVariable("MAX"))
            #expect(try error("price < 'cheap'")?.description.contains("is not a number") == true)
            #expect(try error("price CONTAINS 'x'")?.description.contains("string operators apply to strings") == true)
            #expect(try error("title MATCHES '('")?.description.contains("not a valid regular expression") == true)
            var unsorted = FetchRequest<Book>()
            unsorted.sortDescriptors = [ObjectSortDescriptor("nothing")]
            #expect(throws: ContextError.unknownKeyPath(entity: "Book", keyPath: "nothing")) { try context.fetch(unsorted) }
        }
    }

    @Test(arguments: TestedEngine.available) func substitutionVariables_fillTemplates(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let context = try Self.books([("Emma", 9), ("Persuasion", 12)], in: store)
            let template = try ObjectPredicate(format: "price < $MAX_PRICE AND title BEGINSWITH $PREFIX")
            #expect(template.substitutionVariables == ["MAX_PRICE", "PREFIX"])
            let request = FetchRequest<Book>(predicate: template.withSubstitutionVariables(["MAX_PRICE": 10, "PREFIX": "E"]))
            #expect(try context.fetch(request).map(\.title) == ["Emma"])
        }
    }

    /// The SQL log as values: each statement with its bound values (level 2), then the fetch's
    /// time and row count; printed, the lines `logSQL` writes.
    @Test(arguments: TestedEngine.available) func sqlLog_asValues(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let context = try Self.books([("Emma", 9), ("Ulysses", 30)], in: store)
            let log = store.recordSQL(level: 2)
            _ = try context.fetch(FetchRequest<Book>(predicate: try ObjectPredicate(format: "price < %@", 10)))
            let entries = log.entries
            try #require(entries.count == 2, "\(entries)")
            guard case .statement(let sql, let bound) = entries[0], case .fetched(_, let rows) = entries[1] else {
                Issue.record("\(entries)")
                return
            }
            #expect(sql.hasPrefix("SELECT ") && inSQLiteWords(sql).contains("FROM ZBOOK t0 WHERE"))
            #expect(bound == ["10.0"], "a Double attribute compares with a REAL")
            #expect(rows == 1)
            #expect(log.statements == [sql])
            #expect(entries[0].description == "DataStore: sql: \(sql)  -- bound: 10.0")
            #expect(entries[1].description.hasPrefix("DataStore: annotation: fetch time: ") && entries[1].description.hasSuffix("s for 1 rows"))
            log.removeAll()
            _ = try store.newContext().count(for: FetchRequest<Book>())
            #expect(log.statements.count == 1)
        }
    }

    @Test(arguments: TestedEngine.available) func hostileStrings_neverChangeTheSQL(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let context = try Self.books([("Emma", 9), ("'; DROP TABLE ZBOOK; --", 1)], in: store)
            let lines = LineCollector()
            store.logSQL(level: 1) { lines.append($0) }
            let hostile = ["'; DROP TABLE ZBOOK; --", "\"", "a\0b", "%@", "$X", "\\", "' OR 1=1 --", "🙂\u{301}", "?"]
            var statements: Set<String> = []
            for value in hostile {
                lines.removeAll()
                let request = FetchRequest<Book>(predicate: try ObjectPredicate(format: "title == %@ OR title CONTAINS[cd] %@", value, value))
                let found = try context.fetch(request)
                #expect(found.contains { $0.title == value } == (value == "'; DROP TABLE ZBOOK; --"))
                statements.formUnion(lines.statements)
            }
            #expect(statements.count == 1, "\(statements)")
            #expect(try Self.titles(context, "title == %@", "'; DROP TABLE ZBOOK; --") == ["'; DROP TABLE ZBOOK; --"])
            #expect(try context.count(for: FetchRequest<Book>()) == 2)
        }
    }

    @Test(arguments: TestedEngine.available) func failedBanksTutorialFetch_logsTheTwoPhaseBatchedShape(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.failedBanks, on: engine) { store throws in
            let context = store.newContext()
            for index in 0..<45 {
                let bank = FailedBankInfo(context: context)
                bank.name = "Bank \(index)"
                let details = FailedBankDetails(context: context)
                details.closeDate = Date(timeIntervalSinceReferenceDate: Double(index * 37 % 45) * 86_400)
                bank.details = details
            }
            try context.save()
            let reader = store.newContext()
            let lines = LineCollector()
            store.logSQL(level: 1) { lines.append($0) }
            var request = FetchRequest<FailedBankInfo>()
            request.sortDescriptors = [ObjectSortDescriptor("details.closeDate", ascending: false)]
            request.fetchBatchSize = 20
            let banks = try reader.fetchBatched(request)
            #expect(banks.count == 45)
            let keysQuery = "DataStore: sql: SELECT 0, t0.Z_PK FROM ZFAILEDBANKINFO t0 LEFT OUTER JOIN ZFAILEDBANKDETAILS t1 ON t0.ZDETAILS = t1.Z_PK ORDER BY t1.ZCLOSEDATE DESC, t0.Z_PK"
            #expect(lines.statements == [keysQuery])
            #expect(banks[44].name != nil)
            let batchQuery = lines.statements.last ?? ""
            #expect(batchQuery.hasPrefix("DataStore: sql: SELECT 0, t0.Z_PK, t0.Z_OPT,"))
            #expect(batchQuery.hasSuffix("FROM ZFAILEDBANKINFO t0 LEFT OUTER JOIN ZFAILEDBANKDETAILS t1 ON t0.ZDETAILS = t1.Z_PK WHERE t0.Z_PK IN (?,?,?,?,?) ORDER BY t1.ZCLOSEDATE DESC, t0.Z_PK LIMIT 5"))
            // Reading the rest loads two more batches of 20; the order is the eager fetch's.
            request.fetchBatchSize = 0
            let eager = try reader.fetch(request)
            #expect(banks.map(\.objectID) == eager.map(\.objectID))
            let dates = eager.map { $0.details?.closeDate ?? .distantPast }
            #expect(dates == dates.sorted(by: >))
        }
    }
}

/// Values collected from any thread: SQL log lines, published change sets.
final class Collector<Element>: @unchecked Sendable {
    private var elements: [Element] = []
    private let lock = NSLock()

    func append(_ element: Element) { lock.withLock { elements.append(element) } }
    func removeAll() { lock.withLock { elements.removeAll() } }
    var all: [Element] { lock.withLock { elements } }
}

/// Lines a store's SQL log writes.
typealias LineCollector = Collector<String>

extension Collector<String> {
    /// The SQL statements logged, in SQLite's words (`inSQLiteWords(_:)`).
    var statements: [String] {
        all.filter { $0.hasPrefix("DataStore: sql:") }.map(inSQLiteWords)
    }
}

extension SQLLogRecorder {
    /// The SQL statements logged, in SQLite's words (`inSQLiteWords(_:)`).
    var statementsInSQLiteWords: [String] { statements.map(inSQLiteWords) }
}

/// A statement as a store logs it, in SQLite's words, so that one expectation reads both
/// engines' statements: PostgreSQL quotes every name and numbers its parameters (`"ZBOOK"`,
/// `$1`), and its `NULLS FIRST` and `NULLS LAST` spell out the order SQLite gives nulls.
func inSQLiteWords(_ statement: String) -> String {
    statement.replacing(" NULLS FIRST", with: "").replacing(" NULLS LAST", with: "")
        .replacing(/"([A-Z_0-9]+)"/) { String($0.output.1) }
        .replacing(/\$[0-9]+/, with: "?")
}
/// Change sets a store publishes.
typealias ChangeSetCollector = Collector<ChangeSet>
