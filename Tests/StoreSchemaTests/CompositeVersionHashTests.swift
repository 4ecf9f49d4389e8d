import DataModel
import StoreSchema
import Testing

/// The version hash of an entity with a composite attribute, as two SwiftData stores show Core Data
/// computes it (*The Model Cache Format* §5.7): the composite adds the hash of its members, in name
/// order, at its property's place, and nothing of its own. The stores carry no licence, so the
/// behaviour they showed is checked here on a model written in the test.
@Suite struct CompositeVersionHashTests {
    /// A `Cocktail` whose `author` composite holds `members`.
    static func hash(
        property: String = "author", optional: Bool = true,
        members: [Attribute] = [Attribute("person", .string, isOptional: true), Attribute("id", .integer64)]
    ) -> [UInt8]? {
        let composite = Composite(name: "Author", attributes: members, location: .generated)
        var author = Attribute(property, .composite, isOptional: optional)
        author.compositeName = "Author"
        let entity = Entity("Cocktail", attributes: [author, Attribute("name", .string, isOptional: true)])
        return ModelVersionHashes(model: Model("Bar.xcdatamodel", entities: [entity], composites: [composite])).entityHashes["Cocktail"]
    }

    @Test func nothingOfTheCompositeItself_isHashed() {
        #expect(Self.hash() != nil)
        #expect(Self.hash(property: "authors") == Self.hash(), "its name, where the order of properties stays")
        #expect(Self.hash(optional: false) == Self.hash(), "whether it is optional")
    }

    @Test func itsMembers_areHashedInNameOrder() {
        let reordered = [Attribute("id", .integer64), Attribute("person", .string, isOptional: true)]
        #expect(Self.hash(members: reordered) == Self.hash())
        #expect(Self.hash(members: [Attribute("person", .string, isOptional: true), Attribute("id", .integer32)]) != Self.hash())
        #expect(Self.hash(members: [Attribute("person", .string), Attribute("id", .integer64)]) != Self.hash())
        #expect(Self.hash(members: [Attribute("person", .string, isOptional: true)]) != Self.hash())
    }

    @Test func itsPlace_isItsPropertysAmongTheEntitys() {
        #expect(Self.hash(property: "zest") != Self.hash(), "after `name` rather than before it")
    }
}
