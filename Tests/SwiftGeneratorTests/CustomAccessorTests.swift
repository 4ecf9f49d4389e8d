import DataModel
import Foundation
import SwiftGenerator
import Testing

/// userInfo `datamodel.accessor` = `custom`: the class declares the primitive property and leaves
/// the property itself to the app's code.
@Suite struct CustomAccessorTests {
    /// The Books sample with `userInfo` on its attribute `attribute`.
    static func books(_ attribute: String, _ userInfo: [String: String]) throws -> Model {
        var model = try SampleModel.all[0].load().model
        let entity = try #require(model.entities.firstIndex { $0.name == "Book" })
        let index = try #require(model.entities[entity].attributes.firstIndex { $0.name == attribute })
        model.entities[entity].attributes[index].userInfo = UserInfo(userInfo.map { .init(key: $0.key, value: $0.value, location: .generated) })
        return model
    }

    @Test func aCustomAttribute_getsAPrimitiveProperty_insteadOfItsOwn() throws {
        let result = try SwiftGenerator().generate(Self.books("title", ["datamodel.accessor": "custom"]))
        let book = try #require(result.files.first { $0.name == "Book.swift" }).contents
        #expect(book.contains("""
                /// The value of `title`, which the class's own accessor reads and writes.
                public var primitiveTitle: String { get { primitiveValue(for: Book.title) } set { setPrimitiveValue(newValue, for: Book.title) } }
            """))
        #expect(!book.contains("public var title:"))
        #expect(book.contains(#"public static let title = AttributeKey<Book, String>("title", slot: 1)"#), "the key stays")
        #expect(book.contains("@exclusivity(unchecked) private var _title: String?"), "and so does the storage")
        #expect(result.diagnostics.filter { $0.severity >= .warning }.isEmpty)
    }

    @Test func anUnknownAccessorValue_isAWarning_andTheAttributeKeepsItsProperty() throws {
        let result = try SwiftGenerator().generate(Self.books("title", ["datamodel.accessor": "manual"]))
        let book = try #require(result.files.first { $0.name == "Book.swift" }).contents
        #expect(book.contains("public var title: String {"))
        #expect(result.diagnostics.contains { $0.severity == .warning && $0.message.contains("'custom'") })
    }
}
