import DataStore
import Foundation
import Library
import TestSupport
import Testing

/// Dictionary fetches: values of key paths, distinct results, groups and aggregates — in SQL, and
/// in memory with the same meaning when the context has unsaved changes.
@Suite struct DictionaryFetchTests {
    /// Four books by two authors (and one without), saved in `store`; a fresh context; the SQL log.
    static func library(in store: PersistentStore) throws -> (ObjectContext, LineCollector) {
        let setup = store.newContext()
        let austen = try setup.insertObject(entityName: "Author")
        try austen.setValue("Austen", forKey: "name")
        let eliot = try setup.insertObject(entityName: "Author")
        try eliot.setValue("Eliot", forKey: "name")
        for (title, pages, weight, author) in [("Emma", 474, 1.5, austen), ("Persuasion", 249, 0.5, austen), ("Middlemarch", 880, 2.0, eliot),
                                               ("Anonymous Tales", 120, nil, nil)] as [(String, Int, Double?, ManagedObject?)] {
            let book = try setup.insertObject(entityName: "Book")
            try book.setValue(title, forKey: "title")
            try book.setValue(pages, forKey: "pageCount")
            try book.setValue(weight, forKey: "weight")
            try book.setValue(author, forKey: "author")
        }
        try setup.save()
        let lines = LineCollector()
        store.logSQL(level: 1) { lines.append($0) }
        return (store.newContext(), lines)
    }

    static func request(_ properties: [PropertyToFetch], groupBy: [String] = [], sortedBy sort: [String] = []) -> FetchRequest<ManagedObject> {
        var request = FetchRequest<ManagedObject>(entityName: "Book")
        request.propertiesToFetch = properties
        request.propertiesToGroupBy = groupBy
        request.sortDescriptors = sort.map { ObjectSortDescriptor($0) }
        return request
    }

    @Test(arguments: TestedEngine.available) func values_byKeyPath_withoutNils(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let (context, lines) = try Self.library(in: store)
            let rows = try context.fetchDictionaries(Self.request(["title", "author.name", "author"], sortedBy: ["title"]))
            let austen = try context.fetch(FetchRequest<ManagedObject>(entityName: "Author", predicate: try ObjectPredicate(format: "name == 'Austen'")))[0]
            #expect(rows.map { $0["title"] } == ["Anonymous Tales", "Emma", "Middlemarch", "Persuasion"].map { .attribute(.string($0)) })
            #expect(rows[0] == ["title": .attribute(.string("Anonymous Tales"))], "nil values have no entry")
            #expect(rows[1]["author.name"] == .attribute(.string("Austen")) && rows[1]["author"] == .object(austen.objectID))
            // SQLite computes dictionaries in SQL; a server store, from the objects.
            if engine == .sqlite { #expect(lines.all.contains("DataStore: sql: SELECT t0.ZTITLE, t1.ZNAME, t1.Z_PK, t1.Z_ENT FROM ZITEM t0 LEFT OUTER JOIN ZAUTHOR t1 ON t0.ZAUTHOR = t1.Z_PK WHERE t0.Z_ENT BETWEEN 4 AND 6 ORDER BY t0.ZTITLE, t0.Z_PK")) }
        }
    }

    /// Rows read with typed accessors, and decoded into a `Decodable` struct by coding keys.
    @Test(arguments: TestedEngine.available) func rows_readTyped_andDecode(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let (context, _) = try Self.library(in: store)
            let request = Self.request(
                ["author.name", "author", .count("title", as: "books"), .sum("pageCount", as: "pages"), .average("weight", as: "weight")],
                groupBy: ["author.name", "author"], sortedBy: ["author.name"])
            let rows = try context.fetchDictionaries(request)
            #expect(rows.map { $0.string("author.name") } == [nil, "Austen", "Eliot"])
            #expect(rows.map { $0["pages", as: Int.self] } == [120, 723, 880])
            #expect(rows.map { $0["weight", as: Double.self] } == [nil, 1.0, 2.0])
            #expect(rows[1]["pages", as: Double.self] == 723, "an integer reads as a Double")
            #expect(rows[1]["author.name", as: Int.self] == nil, "a string is no Int")
            #expect(rows[0].objectID("author") == nil && rows[1].objectID("author")?.entityName == "Author")

            struct AuthorTotals: Decodable, Equatable {
                var author: String?
                var books: Int
                var pages: Int64
                var weight: Double?
                enum CodingKeys: String, CodingKey {
                    case author = "author.name", books, pages, weight
                }
            }
            let totals = try context.fetchDictionaries(request, as: AuthorTotals.self)
            #expect(totals.map(\.author) == [nil, "Austen", "Eliot"])
            #expect(totals.map(\.books) == [1, 2, 1] && totals.map(\.pages) == [120, 723, 880] && totals.map(\.weight) == [nil, 1.0, 2.0])

            struct Missing: Decodable {
                var weight: Double
            }
            #expect(performing: { try context.fetchDictionaries(request, as: Missing.self) }, throws: { error in
                guard case ContextError.resultDecoding(let type, let reason) = error else { return false }
                return type == "Missing" && reason.contains("weight")
            })
        }
    }

    @Test(arguments: TestedEngine.available) func distinctResults_inTheOrderOfTheirValues(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let (context, _) = try Self.library(in: store)
            var request = Self.request(["author.name"])
            request.returnsDistinctResults = true
            #expect(try context.fetchDictionaries(request) == [[:], ["author.name": .attribute(.string("Austen"))], ["author.name": .attribute(.string("Eliot"))]])
            request.sortDescriptors = [ObjectSortDescriptor("author.name", ascending: false)]
            request.fetchLimit = 1
            #expect(try context.fetchDictionaries(request) == [["author.name": .attribute(.string("Eliot"))]])
        }
    }

    @Test(arguments: TestedEngine.available) func groups_withAggregates(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let (context, lines) = try Self.library(in: store)
            let request = Self.request(
                ["author.name", .count("title", as: "books"), .sum("pageCount", as: "pages"), .average("weight", as: "weight"),
                 .minimum("title", as: "first"), .maximum("pageCount", as: "longest")],
                groupBy: ["author.name"], sortedBy: ["author.name"])
            let rows = try context.fetchDictionaries(request)
            #expect(rows == [
                ["books": .attribute(.integer(1)), "pages": .attribute(.integer(120)), "first": .attribute(.string("Anonymous Tales")), "longest": .attribute(.integer(120))],
                ["author.name": .attribute(.string("Austen")), "books": .attribute(.integer(2)), "pages": .attribute(.integer(723)), "weight": .attribute(.double(1.0)),
                 "first": .attribute(.string("Emma")), "longest": .attribute(.integer(474))],
                ["author.name": .attribute(.string("Eliot")), "books": .attribute(.integer(1)), "pages": .attribute(.integer(880)), "weight": .attribute(.double(2.0)),
                 "first": .attribute(.string("Middlemarch")), "longest": .attribute(.integer(880))],
            ])
            #expect(engine == .postgreSQL || lines.all.contains { $0.hasSuffix("GROUP BY t1.ZNAME ORDER BY t1.ZNAME") })
            // The same in memory, with an unsaved change that moves a book to the other author.
            let persuasion = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book", predicate: try ObjectPredicate(format: "title == 'Persuasion'")))[0]
            let eliot = try context.fetch(FetchRequest<ManagedObject>(entityName: "Author", predicate: try ObjectPredicate(format: "name == 'Eliot'")))[0]
            try persuasion.setValue(eliot, forKey: "author")
            let changed = try context.fetchDictionaries(request)
            #expect(changed.map { $0["pages"] } == [.attribute(.integer(120)), .attribute(.integer(474)), .attribute(.integer(1129))])
            #expect(changed[2]["weight"] == .attribute(.double(1.25)))
        }
    }

    @Test(arguments: TestedEngine.available) func aggregatesWithoutGroups_makeOneResult_evenForNoObjects(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let (context, _) = try Self.library(in: store)
            var request = Self.request([.count("title", as: "books"), .sum("pageCount", as: "pages"), .average("weight", as: "weight")])
            #expect(try context.fetchDictionaries(request) == [["books": .attribute(.integer(4)), "pages": .attribute(.integer(1723)), "weight": .attribute(.double(4.0 / 3))]])
            request.predicate = .false
            #expect(try context.fetchDictionaries(request) == [["books": .attribute(.integer(0)), "pages": .attribute(.integer(0))]])
        }
    }

    @Test(arguments: TestedEngine.available) func requestsWithoutMeaning_areTypedErrors(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let (context, _) = try Self.library(in: store)
            func failure(_ request: FetchRequest<ManagedObject>) -> String? {
                switch Result(catching: { () throws(ContextError) in try context.fetchDictionaries(request) }) {
                case .success: nil
                case .failure(let error): error.description
                }
            }
            #expect(failure(Self.request(["title", .count("title", as: "n")])) == "invalid fetch request: 'title' is neither grouped by nor aggregated")
            #expect(failure(Self.request([.count("title", as: "n")], groupBy: ["author"], sortedBy: ["title"]))
                == "invalid fetch request: sort key 'title' must be grouped by to order groups")
            #expect(failure(Self.request(["title", .count("pageCount", as: "title")])) == "invalid fetch request: two properties are named 'title'")
            #expect(failure(Self.request(["chapters.title"]))?.contains("leads through a to-many relationship") == true)
            #expect(failure(Self.request([.sum("author", as: "n")])) == "invalid fetch request: 'author' must name an attribute for n = sum(author)")
            var distinctGroups = Self.request(["author"], groupBy: ["author"])
            distinctGroups.returnsDistinctResults = true
            #expect(failure(distinctGroups)?.hasPrefix("invalid fetch request: returnsDistinctResults does not combine") == true)
        }
    }

    /// Random dictionary requests over random data: SQL (no unsaved changes) and memory (an
    /// unrelated unsaved object forces it) return the same results in the same order. 300 by
    /// default; `DATASTORE_DICTIONARY_CASES` sets the count.
    @Test(arguments: TestedEngine.available) func randomRequests_sqlEqualsMemory(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let cases = ProcessInfo.processInfo.environment["DATASTORE_DICTIONARY_CASES"].flatMap(Int.init) ?? 300
            let seed = ProcessInfo.processInfo.environment["DATASTORE_PREDICATE_SEED"].flatMap(UInt64.init) ?? .random(in: 1...UInt64.max)
            var random = SplitMix64(seed: seed)
            let objects = try RandomLibrary.populate(store, &random)
            let sqlContext = store.newContext(), memoryContext = store.newContext()
            _ = try memoryContext.insertObject(entityName: "Reader")
            var generator = RandomPredicate(objects: objects, random: random)
            let keys = ["title", "author.name", "author", "shelf.name", "pageCount", "isAvailable", "published", "weight", "price", "identifier", "cover"]
            let aggregated = ["pageCount", "fileSize", "weight", "rating", "price", "title", "published", "author.name"]
            var nonEmpty = 0
            for index in 0..<cases {
                var request = FetchRequest<ManagedObject>(entityName: ["Book", "Ebook"][index % 5 == 0 ? 1 : 0])
                if generator.random.next() % 3 != 0 {
                    let (format, arguments) = generator.predicate(depth: 1)
                    request.predicate = try ObjectPredicate(format: format, arguments: arguments)
                }
                let chosen = Array(keys.shuffled(using: &generator.random).prefix(Int.random(in: 1...3, using: &generator.random)))
                switch generator.random.next() % 3 {
                case 0:
                    request.propertiesToFetch = chosen.map(PropertyToFetch.key)
                case 1:
                    request.propertiesToFetch = chosen.map(PropertyToFetch.key)
                    request.returnsDistinctResults = true
                default:
                    let grouped = Array(chosen.prefix(Int.random(in: 0...2, using: &generator.random)))
                    request.propertiesToGroupBy = grouped
                    let functions: [(String, String) -> PropertyToFetch] = [PropertyToFetch.count, PropertyToFetch.sum, PropertyToFetch.average, PropertyToFetch.minimum, PropertyToFetch.maximum]
                    request.propertiesToFetch = grouped.map(PropertyToFetch.key) + (0..<Int.random(in: 1...3, using: &generator.random)).map { number in
                        functions.randomElement(using: &generator.random)!(aggregated.randomElement(using: &generator.random)!, "value\(number)")
                    }
                }
                let isGrouped = request.propertiesToFetch.contains { $0.function != nil }
                let sortable = isGrouped ? request.propertiesToGroupBy
                    : request.returnsDistinctResults ? request.propertiesToFetch.map(\.keyPath) : ["title", "pageCount", "author.name"]
                request.sortDescriptors = sortable.filter { $0 != "author" && $0 != "cover" && generator.random.next() % 2 == 0 }
                    .map { ObjectSortDescriptor($0, ascending: generator.random.next() % 2 == 0, comparator: [.compare, .caseInsensitiveCompare, .localizedStandardCompare][index % 3]) }
                if generator.random.next() % 4 == 0 { request.fetchLimit = Int.random(in: 1...5, using: &generator.random) }
                if generator.random.next() % 4 == 0 { request.fetchOffset = Int.random(in: 0...3, using: &generator.random) }

                let label = "case \(index), seed \(seed): \(request.propertiesToFetch) grouped by \(request.propertiesToGroupBy), distinct \(request.returnsDistinctResults), \(request.predicate.map(String.init(describing:)) ?? "all"), sorted by \(request.sortDescriptors), limit \(request.fetchLimit) offset \(request.fetchOffset)"
                let fromSQL = try sqlContext.fetchDictionaries(request)
                let inMemory = try memoryContext.fetchDictionaries(request)
                try #require(fromSQL.count == inMemory.count, "\(label)\nSQL: \(fromSQL)\nmemory: \(inMemory)")
                for (left, right) in zip(fromSQL, inMemory) {
                    try #require(Self.nearlyEqual(left, right), "\(label)\nSQL: \(fromSQL)\nmemory: \(inMemory)")
                }
                if !fromSQL.isEmpty { nonEmpty += 1 }
            }
            #expect(nonEmpty > cases / 2, "only \(nonEmpty) of \(cases) requests returned anything")
        }
    }

    /// Equal, but for sums and means of reals added in another order.
    static func nearlyEqual(_ lhs: [String: PredicateValue], _ rhs: [String: PredicateValue]) -> Bool {
        guard lhs.keys.sorted() == rhs.keys.sorted() else { return false }
        return lhs.allSatisfy { key, value in
            switch (value, rhs[key]!) {
            case (.attribute(.double(let left)), .attribute(.double(let right))): abs(left - right) <= 1e-9 * max(1, abs(left))
            case (.attribute(.decimal(let left)), .attribute(.decimal(let right))): abs(NSDecimalNumber(decimal: left - right).doubleValue) <= 1e-9 * max(1, abs(NSDecimalNumber(decimal: left).doubleValue))
            case (let left, let right): left == right
            }
        }
    }
}
