import DataStore
import Foundation
import Library
import TestSupport
import Testing

/// `relationshipKeyPathsForPrefetching`: one query per relationship step, after which using the
/// relationships reads nothing — and gives exactly what loading them one by one gives.
@Suite struct PrefetchingTests {
    static let keyPaths = ["author", "chapters", "tags", "related", "shelf.books", "shelf.featured"]

    /// What a book leads to along `keyPaths`, as text: names, titles and IDs, in order.
    static func reached(_ book: ManagedObject) -> String {
        func name(_ object: Any?) -> String {
            guard let object = object as? ManagedObject else { return "nil" }
            return "\(object.objectID.primaryKey ?? -1):\(object.value(forKey: object.entity.name == "Chapter" || object.entity.name.hasSuffix("book") || object.entity.name == "Book" ? "title" : "name") ?? "nil")"
        }
        func names(_ objects: Any?) -> String {
            let list = (objects as? [ManagedObject]) ?? (objects as? Set<ManagedObject>).map { $0.sorted { ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0) } } ?? []
            return "[" + list.map(name).joined(separator: ",") + "]"
        }
        let shelf = book.value(forKey: "shelf") as? ManagedObject
        return [name(book.value(forKey: "author")), names(book.value(forKey: "chapters")), names(book.value(forKey: "tags")),
                names(book.value(forKey: "related")), names(shelf?.value(forKey: "books")), name(shelf?.value(forKey: "featured"))]
            .joined(separator: " ")
    }

    @Test(arguments: TestedEngine.available) func prefetchedRelationships_readNothingMore_andEqualLoadingOneByOne(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            var random = SplitMix64(seed: 7)
            _ = try RandomLibrary.populate(store, &random)
            let lines = LineCollector()
            store.logSQL(level: 1) { lines.append($0) }
            var request = FetchRequest<ManagedObject>(entityName: "Book", sortDescriptors: [ObjectSortDescriptor("title")])
            request.relationshipKeyPathsForPrefetching = Self.keyPaths
            let context = store.newContext()
            let books = try context.fetch(request)
            let statements = lines.statements
            // The fetch, then one query per step: author, chapters, tags, related, shelf, shelf.books —
            // the featured books are among those already read.
            #expect(statements.count == 7, "\(statements.joined(separator: "\n"))")
            #expect(statements.contains { $0.contains("FROM ZCHAPTER t0 WHERE t0.ZBOOK IN (") && $0.hasSuffix("ORDER BY t0.ZBOOK, t0.Z_FOK_BOOK") })
            lines.removeAll()
            let prefetched = books.map(Self.reached)
            #expect(lines.statements == [], "using prefetched relationships read the store")

            request.relationshipKeyPathsForPrefetching = []
            let other = store.newContext()
            let oneByOne = try other.fetch(request).map(Self.reached)
            #expect(prefetched == oneByOne)
            #expect(Set(prefetched).count > 10, "the data must make the comparison mean something")
        }
    }

    @Test(arguments: TestedEngine.available) func batchedFetches_prefetchEachBatch(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            var random = SplitMix64(seed: 11)
            _ = try RandomLibrary.populate(store, &random)
            let lines = LineCollector()
            store.logSQL(level: 1) { lines.append($0) }
            var request = FetchRequest<ManagedObject>(entityName: "Book", sortDescriptors: [ObjectSortDescriptor("title")])
            request.fetchBatchSize = 25
            request.relationshipKeyPathsForPrefetching = ["author"]
            let books = try store.newContext().fetchBatched(request)
            _ = books[30]
            let statements = lines.statements
            #expect(statements.count == 3, "keys, the batch, its authors: \(statements)")
            #expect(statements.last?.contains("FROM ZAUTHOR t0 WHERE t0.Z_PK IN (") == true)
            lines.removeAll()
            _ = books[26...49].map { ($0.value(forKey: "author") as? ManagedObject)?.value(forKey: "name") }
            #expect(lines.statements == [])
        }
    }

    @Test(arguments: TestedEngine.available) func prefetchedRows_giveWayToMergedChanges(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let (context, _) = try DictionaryFetchTests.library(in: store)
            var request = FetchRequest<ManagedObject>(entityName: "Book", predicate: try ObjectPredicate(format: "title == 'Emma'"))
            request.relationshipKeyPathsForPrefetching = ["author"]
            let emma = try context.fetch(request)[0]
            let writer = store.newContext()
            let austen = try writer.fetch(FetchRequest<ManagedObject>(entityName: "Author", predicate: try ObjectPredicate(format: "name == 'Austen'")))[0]
            try austen.setValue("Jane Austen", forKey: "name")
            let changes = ChangeSetCollector()
            let observation = store.addObserver { changes.append($0) }
            try writer.save()
            _ = observation
            context.mergeChanges(from: try #require(changes.all.first))
            #expect((emma.value(forKey: "author") as? ManagedObject)?.value(forKey: "name") as? String == "Jane Austen")
        }
    }

    @Test(arguments: TestedEngine.available) func keyPathsThatNameNoRelationship_areTypedErrors(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            var request = FetchRequest<ManagedObject>(entityName: "Book")
            request.relationshipKeyPathsForPrefetching = ["author.name"]
            #expect(throws: ContextError.unknownKeyPath(entity: "Author", keyPath: "author.name")) { try store.newContext().fetch(request) }
            request.relationshipKeyPathsForPrefetching = ["writer"]
            #expect(throws: ContextError.unknownKeyPath(entity: "Book", keyPath: "writer")) { try store.newContext().fetch(request) }
        }
    }
}
