@testable import DataStore
import GeneratedBooks
import Testing
import TestSupport

/// `AttributeValues`: rows of many objects share one buffer, yet each behaves as an array of its
/// own — a write to one row never shows in another, nor in a copy kept as the saved values.
@Suite struct AttributeValuesTests {
    @Test func rowsWrittenTogether_shareABuffer_butNotTheirWrites() {
        var writer = AttributeValues.Writer(valuesPerBuffer: 8)
        var rows = (0..<5).map { row in writer.row(count: 3) { .integer(Int64(row * 10 + $0)) } }
        let saved = rows
        rows[1][2] = .string("changed")
        rows[3][0] = .null
        for row in rows.indices {
            for slot in 0..<3 {
                let original = AttributeValue.integer(Int64(row * 10 + slot))
                #expect(saved[row][slot] == original, "saved row \(row) slot \(slot)")
                let expected: AttributeValue = (row, slot) == (1, 2) ? .string("changed") : (row, slot) == (3, 0) ? .null : original
                #expect(rows[row][slot] == expected, "row \(row) slot \(slot)")
            }
        }
    }

    /// Against plain arrays under random rows, copies and writes.
    @Test func randomRowsCopiesAndWrites_matchArrays() {
        var random = SplitMix64(seed: 20_261_122)
        var writer = AttributeValues.Writer(valuesPerBuffer: 16)
        var rows: [AttributeValues] = []
        var expected: [[AttributeValue]] = []
        for step in 0..<5_000 {
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                let values = (0..<Int.random(in: 0..<6, using: &random)).map { _ in
                    AttributeValue.string(String(Int.random(in: 0..<1_000, using: &random)))
                }
                rows.append(writer.row(count: values.count) { values[$0] })
                expected.append(values)
            case 1 where !rows.isEmpty:
                let index = Int.random(in: 0..<rows.count, using: &random)
                rows.append(rows[index])
                expected.append(expected[index])
            case 2 where !rows.isEmpty:
                let index = Int.random(in: 0..<rows.count, using: &random)
                guard !expected[index].isEmpty else { continue }
                let slot = Int.random(in: 0..<expected[index].count, using: &random)
                rows[index][slot] = .integer(Int64(step))
                expected[index][slot] = .integer(Int64(step))
            default:
                if !rows.isEmpty, Bool.random(using: &random) {
                    let index = Int.random(in: 0..<rows.count, using: &random)
                    rows.remove(at: index)
                    expected.remove(at: index)
                }
            }
        }
        #expect(rows.map { row in row.indices.map { row[$0] } } == expected)
    }

    /// The same guarantee where it matters: objects of one fetch share a buffer, and changing
    /// one changes no other, and rolling back restores it.
    @Test(arguments: TestedEngine.available) func objectsOfOneFetch_changeIndependently(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.books, on: engine) { store throws in
            let context = try FetchRequestTests.books([("Emma", 9), ("Persuasion", 12), ("Beloved", 15)], in: store)
            let books = try context.fetch(FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("title")]))
            books[1].title = "Mansfield Park"
            #expect(books.map(\.title) == ["Beloved", "Mansfield Park", "Persuasion"])
            #expect(context.updatedObjects == [books[1]])
            context.rollback()
            #expect(books.map(\.title) == ["Beloved", "Emma", "Persuasion"])
        }
    }
}
