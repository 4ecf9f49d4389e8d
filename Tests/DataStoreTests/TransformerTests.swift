import DataStore
import Foundation
import GRDB
import class GeneratedBooks.Book
import Library
import Testing

/// Transformable attributes through a `ValueTransforming` transformer, for values that are not `Codable`.
@Suite struct TransformerTests {
    /// A value type with its own byte format and no `Codable` conformance.
    final class Palette {
        let colors: [UInt8]
        init(_ colors: [UInt8]) { self.colors = colors }
    }

    struct TooManyColors: Error {}

    /// `P` followed by one byte per color; at most 8 colors.
    struct PaletteTransformer: ValueTransforming {
        func encode(_ palette: Palette) throws -> Data {
            guard palette.colors.count <= 8 else { throw TooManyColors() }
            return Data([0x50] + palette.colors)
        }

        func decode(_ data: Data) throws -> Palette {
            guard data.first == 0x50 else { throw CocoaError(.coderReadCorrupt) }
            return Palette(Array(data.dropFirst()))
        }
    }

    static let palette = TransformedKey<Library.Book, PaletteTransformer>("metadata", slot: 7, transformer: PaletteTransformer())

    @Test(arguments: TestedEngine.available) func valuesRoundTrip_inTheTransformersByteFormat(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            let book = Library.Book(context: context)
            book[Self.palette] = Palette([1, 2, 3])
            try context.save()

            let key = try #require(book.objectID.primaryKey)
            #expect(try TestStores.rows(#"SELECT "ZMETADATA" FROM "ZITEM" WHERE "Z_PK" = \#(key)"#, in: store) == [["50010203"]])
            let reread = try #require(try store.newContext().fetch(FetchRequest<Library.Book>()).first)
            #expect(reread[Self.palette]?.colors == [1, 2, 3])
            // Bytes the transformer cannot read give nil, not a crash.
            try reread.setAttributeValue(.data(Data([9, 9])), forKey: "metadata")
            #expect(reread[Self.palette] == nil)
        }
    }

    @Test(arguments: TestedEngine.available) func aValueTheTransformerRejects_failsTheSave_andLosesNothing(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            let book = Library.Book(context: context)
            book[Self.palette] = Palette([7])
            try context.save()

            book[Self.palette] = Palette(Array(repeating: 1, count: 9))
            #expect(throws: SaveError.validation([.unencodableValue(entity: "Book", property: "metadata", reason: "TooManyColors()")])) {
                try context.save()
            }
            #expect(book[Self.palette]?.colors == [7], "the stored value is kept")
        }
    }
}
