import DataStore
import Foundation
import Library
import PostgreSQLStore
import Testing
import TestSupport

/// Text comparisons on a server are judged in memory, as `TextMatching` defines them; its SQL
/// reads only the rows that may match — exactly for ASCII values, and every value with other
/// characters, which only Swift folds. Same results as a SQLite store, fewer rows read.
@Suite(.enabled(if: PostgreSQLTestServer.url != nil, PostgreSQLTestServer.unavailableReason))
struct PostgreSQLTextPredicateTests {
    /// 300 ASCII titles, and titles whose folding needs Unicode: a Kelvin sign that `[c]` reads
    /// as `k`, a decomposed and a precomposed `É`, a ligature, `ß`, LIKE's wildcards.
    static let titles: [String] = (0..<300).map { "Book \($0)" }
        + ["Kelvin \u{212A}", "e\u{301}tude", "Étude", "ﬀ ligature", "STRASSE", "straße", #"a%b_c\d"#, " "]
    static let otherThanASCII = 5

    static let predicates: [(format: String, pattern: String, narrows: Bool)] = [
        ("title CONTAINS[cd] %@", "etude", true),
        ("title BEGINSWITH[c] %@", "book 1", true),
        ("title ENDSWITH %@", "9", true),
        ("title CONTAINS[c] %@", "k", true),
        ("title CONTAINS %@", "%b_", true),
        ("title CONTAINS[d] %@", "é", true),
        ("title CONTAINS %@", "é", true),
        ("title CONTAINS[c] %@", "", true),
        ("title CONTAINS %@", "a\u{0}b", true),
        ("title CONTAINS[c] %@ AND pageCount > 150", "book", true),
        ("NOT (title CONTAINS %@)", "Book", false),
        ("title CONTAINS[c] %@ OR pageCount < 3", "ss", false),
    ]

    @Test func textComparisons_readFewerRows_andMatchAsInSQLite() async throws {
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let sqlite = try PersistentStore.inMemory(model: TestStores.library)
            let server = try await PersistentStore(postgreSQL: database, model: TestStores.library)
            for store in [sqlite, server] {
                let context = store.newContext()
                for (index, title) in Self.titles.enumerated() {
                    let book = Book(context: context)
                    book.title = title
                    book.pageCount = Int16(index)
                }
                try await context.save()
            }
            let log = server.recordSQL()
            for (format, pattern, narrows) in Self.predicates {
                var request = FetchRequest<Book>()
                request.predicate = try ObjectPredicate(format: format, pattern)
                let expected = try await sqlite.newContext().fetch(request).map(\.pageCount).sorted()
                log.removeAll()
                let found = try await server.newContext().fetch(request).map(\.pageCount).sorted()
                #expect(found == expected, "\(format) \(pattern)")
                let read = log.entries.compactMap { entry -> Int? in if case .fetched(_, let rows) = entry { rows } else { nil } }.reduce(0, +)
                if narrows {
                    // The ASCII rows that match, and the titles with other characters.
                    #expect(read <= expected.count + Self.otherThanASCII, "\(format) \(pattern): \(read) rows read for \(expected.count)")
                } else {
                    #expect(read > 300, "\(format) \(pattern)")
                }
            }
        }
    }
}
