import DataStore
import Foundation
import GeneratedBooks
import Testing

/// What a fetch reads and how its objects start: `returnsObjectsAsFaults` and
/// `includesPropertyValues`, observed through `isFault` and the SQL log.
@Suite struct FetchFaultingTests {
    /// A Books store with three books, a fresh context on it, and its SQL log.
    static func store() throws -> (ObjectContext, LineCollector) {
        let (store, context) = try FetchRequestTests.books([("Emma", 9), ("Persuasion", 12), ("Beloved", 15)])
        let lines = LineCollector()
        store.logSQL(level: 1) { lines.append($0) }
        return (context, lines)
    }

    static func statements(_ lines: LineCollector) -> [String] {
        lines.all.filter { $0.hasPrefix("DataStore: sql:") }
    }

    @Test func fetchedObjects_areFaultsThatFireWithoutReading() throws {
        let (context, lines) = try Self.store()
        let books = try context.fetch(FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("title")]))
        #expect(books.allSatisfy { $0.isFault })
        #expect(Self.statements(lines).count == 1)
        #expect(books.map(\.title) == ["Beloved", "Emma", "Persuasion"])
        #expect(books.allSatisfy { !$0.isFault })
        #expect(Self.statements(lines).count == 1, "the fetch brought the values: firing reads nothing")
    }

    @Test func returnsObjectsAsFaultsFalse_givesLoadedObjects() throws {
        let (context, lines) = try Self.store()
        var request = FetchRequest<Book>()
        request.returnsObjectsAsFaults = false
        let books = try context.fetch(request)
        #expect(books.count == 3 && books.allSatisfy { !$0.isFault })
        // Objects already in use stay as they are, whatever the next request asks.
        request.returnsObjectsAsFaults = true
        #expect(try context.fetch(request).allSatisfy { !$0.isFault })
        #expect(Self.statements(lines).count == 2)
    }

    @Test func includesPropertyValuesFalse_readsKeysOnly() throws {
        let (context, lines) = try Self.store()
        var request = FetchRequest<Book>(predicate: try ObjectPredicate(format: "price > 10"), sortDescriptors: [ObjectSortDescriptor("price")])
        request.includesPropertyValues = false
        let books = try context.fetch(request)
        #expect(books.count == 2 && books.allSatisfy { $0.isFault })
        #expect(Self.statements(lines) == ["DataStore: sql: SELECT t0.Z_PK, t0.Z_ENT FROM ZBOOK t0 WHERE t0.ZPRICE > ? ORDER BY t0.ZPRICE, t0.Z_PK"])
        // Each object reads its own row when first used.
        #expect(books[1].title == "Beloved")
        #expect(Self.statements(lines).count == 2)
        #expect(Self.statements(lines)[1].hasSuffix("FROM ZBOOK t0 WHERE t0.Z_PK = ?"))
        #expect(books[0].title == "Persuasion" && !books[0].isFault)
        #expect(Self.statements(lines).count == 3)
    }

    @Test func batchedResults_areFaultsUntilUsed() throws {
        let (context, _) = try Self.store()
        var request = FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("title")])
        request.fetchBatchSize = 2
        let books = try context.fetchBatched(request)
        #expect(books[2].isFault)
        #expect(books[2].title == "Persuasion" && !books[2].isFault)
    }
}
