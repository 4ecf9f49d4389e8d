import DataModel
import Foundation
import PropertyLists
import StoreSchema
import Testing

/// Composite attributes read from a model archive. No store with one carries a licence that lets it
/// be a fixture, so the archive is written here, each object with the class name and keys the two
/// SwiftData stores examined hold (*The Model Cache Format* §5.7).
@Suite struct ArchivedCompositeTests {
    /// A `Cocktail` with an optional composite `author` (`id`, `person`), a required one `tags`
    /// whose default is an empty dictionary, and an `id` and a `name` of its own.
    static func archive() -> [UInt8] {
        var writer = KeyedArchiveWriter()
        let authorMembers = [writer.attribute("id", type: 1100), writer.attribute("person", type: 700)]
        let author = writer.object("NSCompositeAttributeDescription", [
            "NSPropertyName": writer.string("author"), "NSAttributeType": .integer(2100), "NSIsOptional": .boolean(true),
            "NSAttributeValueClassName": writer.string("NSDictionary"), "NSCompositeElements": writer.array(authorMembers),
        ])
        let tagsMembers = [writer.attribute("flavors", type: 1000)]
        let tags = writer.object("NSCompositeAttributeDescription", [
            "NSPropertyName": writer.string("tags"), "NSAttributeType": .integer(2100), "NSAttributeValueClassName": writer.string("NSDictionary"),
            "NSDefaultValue": writer.dictionary([], mutable: true), "NSCompositeElements": writer.array(tagsMembers),
        ])
        let properties = writer.dictionary([
            ("author", author), ("id", writer.attribute("id", type: 1100)), ("name", writer.attribute("name", type: 700)), ("tags", tags),
        ])
        let entity = writer.object("NSEntityDescription", ["NSEntityName": writer.string("Cocktail"), "NSProperties": properties])
        let root = writer.object("NSManagedObjectModel", ["NSEntities": writer.dictionary([("Cocktail", entity)])])
        return writer.bytes(root: root)
    }

    @Test func aCompositeAttribute_becomesAModelLevelCompositeNamedByItsProperty() throws {
        let model = try ModelCache.decode(compiledModel: Self.archive(), path: "Cocktails.mom")
        let cocktail = try #require(model.entity(named: "Cocktail"))
        let author = try #require(cocktail.attribute(named: "author"))
        #expect(author.type == .composite && author.isOptional && author.compositeName == "Author")
        let tags = try #require(cocktail.attribute(named: "tags"))
        #expect(tags.type == .composite && !tags.isOptional && tags.compositeName == "Tags" && tags.defaultValue == nil)
        #expect(model.composites.map(\.name) == ["Author", "Tags"])
        #expect(model.composite(named: "Author")?.attributes.map { "\($0.name): \($0.type.rawValue)" } == ["id: UUID", "person: String"])
        #expect(model.composite(named: "Tags")?.attributes.map(\.name) == ["flavors"])

        // Laid out as Core Data lays composites out: by property name, so `author`'s leaves come
        // first and its `id` keeps the plain name.
        let table = try #require(StoreSchema(model: model).tables.first)
        #expect(table.columns.map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "ZPERSON", "ZNAME", "ZID", "ZID1", "ZFLAVORS"])
    }

    /// A damaged archive whose composite contains itself, or whose predicate does, is refused with
    /// a typed error, not read until the stack runs out.
    @Test func objectsThatContainThemselves_areRefused() throws {
        var writer = KeyedArchiveWriter()
        let (loop, index) = writer.reserve()
        writer.fill(index, "NSCompositeAttributeDescription", [
            "NSPropertyName": writer.string("loop"), "NSAttributeType": .integer(2100), "NSCompositeElements": writer.array([loop]),
        ])
        let entity = writer.object("NSEntityDescription", ["NSEntityName": writer.string("Thing"), "NSProperties": writer.dictionary([("loop", loop)])])
        let root = writer.object("NSManagedObjectModel", ["NSEntities": writer.dictionary([("Thing", entity)])])
        #expect(throws: ModelCacheError.self) { try ModelCache.decode(compiledModel: writer.bytes(root: root), path: "Loop.mom") }

        var predicates = KeyedArchiveWriter()
        let (compound, slot) = predicates.reserve()
        predicates.fill(slot, "NSCompoundPredicate", ["NSCompoundPredicateType": .integer(1), "NSSubpredicates": predicates.array([compound])])
        let archive = try KeyedArchive(binaryPropertyList: predicates.bytes(root: compound))
        #expect(throws: (any Error).self) { try ArchivedPredicate.text(of: archive.topValue()) }
    }
}

extension KeyedArchiveWriter {
    /// An `NSAttributeDescription` of `type` (Core Data's attribute type code).
    mutating func attribute(_ name: String, type: Int, optional: Bool = false) -> PropertyListValue {
        object("NSAttributeDescription", ["NSPropertyName": string(name), "NSAttributeType": .integer(type), "NSIsOptional": .boolean(optional)])
    }
}
