import DataModel
import StoreSchema
import Testing

/// The version hash of an entity with a derived attribute, as a store CoreDataPlus's app wrote
/// shows Core Data computes it (`DefaultObjectTests` checks that store): the attribute counts by
/// its expression as Core Data prints it, and by nothing else. A store an earlier release of
/// DataModelKit wrote, which hashed it as a plain attribute, still counts as the model's.
@Suite struct DerivedVersionHashTests {
    static func model(expression: String = "pages.@count", name: String = "pageCount", type: AttributeType = .integer64) -> Model {
        let derived = Attribute(name, type, isOptional: true, isDerived: true, derivationExpression: expression)
        let pages = Relationship("pages", destination: "Page", inverseName: "book", isToMany: true, isOptional: true)
        let book = Relationship("book", destination: "Book", inverseName: "pages", isOptional: true)
        return Model("Shelf.xcdatamodel", entities: [
            Entity("Book", attributes: [derived, Attribute("title", .string, isOptional: true)], relationships: [pages]),
            Entity("Page", attributes: [Attribute("number", .integer32)], relationships: [book]),
        ])
    }

    static func hash(_ model: Model) -> [UInt8]? { ModelVersionHashes(model: model).entityHashes["Book"] }

    @Test func onlyThePrintedExpression_isHashed() {
        #expect(Self.hash(Self.model(expression: "count:(pages)")) == Self.hash(Self.model()), "both forms print as count:(pages)")
        #expect(Self.hash(Self.model(name: "pageTotal")) == Self.hash(Self.model()), "not its name, where its place stays")
        #expect(Self.hash(Self.model(type: .integer32)) == Self.hash(Self.model()), "not its type")
        #expect(Self.hash(Self.model(expression: "now()")) != Self.hash(Self.model()))
    }

    @Test func aStoreHashedByTheEarlierRule_isTheModels() throws {
        let hashes = ModelVersionHashes(model: Self.model())
        let earlier = try #require(hashes.earlierEntityHashes["Book"])
        #expect(earlier != hashes.entityHashes["Book"])
        #expect(hashes.earlierEntityHashes["Page"] == nil, "an entity without a derived attribute hashes as it did")
        var stored = hashes
        stored.earlierEntityHashes = [:]
        stored.entityHashes["Book"] = earlier
        #expect(hashes.entitiesDiffering(from: ModelVersionHashes(entityHashes: stored.entityHashes)) == [])
        #expect(ModelVersionHashes(entityHashes: stored.entityHashes).entitiesDiffering(from: hashes) == [])
        stored.entityHashes["Book"] = [UInt8](repeating: 7, count: 32)
        #expect(hashes.entitiesDiffering(from: ModelVersionHashes(entityHashes: stored.entityHashes)) == ["Book"])
        stored.entityHashes["Book"] = nil
        #expect(hashes.entitiesDiffering(from: ModelVersionHashes(entityHashes: stored.entityHashes)) == ["Book"])
    }
}
