import DataStore
import Foundation
import GeneratedBooks
import Testing

/// What a fetch reads and how its objects start: `returnsObjectsAsFaults` and
/// `includesPropertyValues`, observed through `isFault` and the SQL log.
@Suite struct FetchFaultingTests {
    /// Three books saved in `store`, a Books store; a fresh context on it, and its SQL log.
    static func threeBooks(in store: PersistentStore) throws -> (ObjectContext, LineCollector) {
        let context = try FetchRequestTests.books([("Emma", 9), ("Persuasion", 12), ("Beloved", 15)], in: store)
        let lines = LineCollector()
        store.logSQL(level: 1) { lines.append($0) }
        return (context, lines)
    }

    @Test(arguments: TestedEngine.available) func fetchedObjects_areFaultsThatFireWithoutReading(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let (context, lines) = try Self.threeBooks(in: store)
            let books = try context.fetch(FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("title")]))
            #expect(books.allSatisfy { $0.isFault })
            #expect(lines.statements.count == 1)
            #expect(books.map(\.title) == ["Beloved", "Emma", "Persuasion"])
            #expect(books.allSatisfy { !$0.isFault })
            #expect(lines.statements.count == 1, "the fetch brought the values: firing reads nothing")
        }
    }

    @Test(arguments: TestedEngine.available) func returnsObjectsAsFaultsFalse_givesLoadedObjects(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let (context, lines) = try Self.threeBooks(in: store)
            var request = FetchRequest<Book>()
            request.returnsObjectsAsFaults = false
            let books = try context.fetch(request)
            #expect(books.count == 3 && books.allSatisfy { !$0.isFault })
            // Objects already in use stay as they are, whatever the next request asks.
            request.returnsObjectsAsFaults = true
            #expect(try context.fetch(request).allSatisfy { !$0.isFault })
            #expect(lines.statements.count == 2)
        }
    }

    @Test(arguments: TestedEngine.available) func includesPropertyValuesFalse_readsKeysOnly(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let (context, lines) = try Self.threeBooks(in: store)
            var request = FetchRequest<Book>(predicate: try ObjectPredicate(format: "price > 10"), sortDescriptors: [ObjectSortDescriptor("price")])
            request.includesPropertyValues = false
            let books = try context.fetch(request)
            #expect(books.count == 2 && books.allSatisfy { $0.isFault })
            #expect(lines.statements == ["DataStore: sql: SELECT t0.Z_PK, t0.Z_ENT FROM ZBOOK t0 WHERE t0.ZPRICE > ? ORDER BY t0.ZPRICE, t0.Z_PK"])
            // Each object reads its own row when first used.
            #expect(books[1].title == "Beloved")
            #expect(lines.statements.count == 2)
            #expect(lines.statements[1].hasSuffix("FROM ZBOOK t0 WHERE t0.Z_PK = ?"))
            #expect(books[0].title == "Persuasion" && !books[0].isFault)
            #expect(lines.statements.count == 3)
        }
    }

    @Test(arguments: TestedEngine.available) func batchedResults_areFaultsUntilUsed(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let (context, _) = try Self.threeBooks(in: store)
            var request = FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("title")])
            request.fetchBatchSize = 2
            let books = try context.fetchBatched(request)
            #expect(books[2].isFault)
            #expect(books[2].title == "Persuasion" && !books[2].isFault)
        }
    }
}
