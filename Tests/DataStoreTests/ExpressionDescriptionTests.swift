import DataStore
import Foundation
import Library
import Testing

/// Expressions in dictionary fetches, as Core Data's `NSExpressionDescription`s give them: any
/// expression of each object, and aggregates of one over each group.
@Suite struct ExpressionDescriptionTests {
    static func expression(_ format: String, as name: String) throws -> PropertyToFetch {
        .expression(try PredicateExpression(format: format), as: name)
    }

    @Test(arguments: TestedEngine.available) func expressionsOfEachObject(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let (context, _) = try DictionaryFetchTests.library(in: store)
            let request = DictionaryFetchTests.request(
                ["title", try Self.expression("pageCount * 2 + 1", as: "doubled"), try Self.expression("uppercase:(title)", as: "shout"),
                 try Self.expression("TERNARY(pageCount > 300, 'long', 'short')", as: "length"),
                 try Self.expression("weight / 2", as: "half"), try Self.expression("SELF", as: "object")],
                sortedBy: ["title"])
            let rows = try context.fetchDictionaries(request)
            let emma = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book", predicate: try ObjectPredicate(format: "title == 'Emma'")))[0]
            #expect(rows.map { $0["doubled"] } == [241, 949, 1761, 499].map { .attribute(.integer($0)) })
            #expect(rows.map { $0["shout"] } == ["ANONYMOUS TALES", "EMMA", "MIDDLEMARCH", "PERSUASION"].map { .attribute(.string($0)) })
            #expect(rows.map { $0["length"] } == ["short", "long", "long", "short"].map { .attribute(.string($0)) })
            #expect(rows.map { $0["half"] } == [nil, .attribute(.double(0.75)), .attribute(.double(1)), .attribute(.double(0.25))],
                    "a value computed from nil is nil: no entry")
            #expect(rows[1]["object"] == .object(emma.objectID))
        }
    }

    @Test(arguments: TestedEngine.available) func aggregatesOfExpressions_perGroup(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let (context, _) = try DictionaryFetchTests.library(in: store)
            let request = DictionaryFetchTests.request(
                ["author.name", try Self.expression("sum:(pageCount * 2)", as: "doubledPages"), try Self.expression("count:(title)", as: "books"),
                 try Self.expression("max:(pageCount)", as: "longest"), try Self.expression("average:(weight * 10)", as: "weight"),
                 try Self.expression("min:(lowercase:(title))", as: "first"), try Self.expression("count:(SELF)", as: "objects")],
                groupBy: ["author.name"], sortedBy: ["author.name"])
            let rows = try context.fetchDictionaries(request)
            #expect(rows.map { $0.string("author.name") } == [nil, "Austen", "Eliot"])
            #expect(rows.map { $0["doubledPages"] } == [240, 1446, 1760].map { .attribute(.integer($0)) })
            #expect(rows.map { $0["books"] } == [1, 2, 1].map { .attribute(.integer($0)) })
            #expect(rows.map { $0["longest"] } == [120, 474, 880].map { .attribute(.integer($0)) })
            #expect(rows.map { $0["weight"] } == [nil, .attribute(.double(10)), .attribute(.double(20))])
            #expect(rows.map { $0["first"] } == ["anonymous tales", "emma", "middlemarch"].map { .attribute(.string($0)) })
            #expect(rows.map { $0["objects"] } == [1, 2, 1].map { .attribute(.integer($0)) })

            // Without grouping, every object is in the one group.
            let total = try context.fetchDictionaries(DictionaryFetchTests.request([try Self.expression("sum:(pageCount)", as: "pages")]))
            #expect(total == [["pages": .attribute(.integer(1723))]])
        }
    }

    @Test func meaninglessExpressions_areRefused() throws {
        let context = try TestStores.newStore(TestStores.library).newContext()
        for (format, name) in [("sum:(author)", "authors"), ("noSuchKey * 2", "bad")] {
            #expect(throws: ContextError.self) {
                try context.fetchDictionaries(DictionaryFetchTests.request([try Self.expression(format, as: name)]))
            }
        }
        #expect(throws: ContextError.self, "a value neither grouped by nor aggregated") {
            try context.fetchDictionaries(DictionaryFetchTests.request(
                ["author.name", try Self.expression("pageCount * 2", as: "doubled")], groupBy: ["author.name"]))
        }
        #expect(throws: PredicateSyntaxError.self) { try PredicateExpression(format: "price *") }
    }
}
