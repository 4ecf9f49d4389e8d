import DataModel
import DataModelParser
import Foundation
import PredicateLanguage
import Testing

/// The mapping-model writer: what it writes reads back, through the parser, as the mapping model it
/// was given — the twelve real mapping models of the corpus among them.
@Suite struct MappingModelWriterTests {
    /// `mapping` with every location and its path made equal, for comparing what was read from two files.
    static func withoutLocations(_ mapping: MappingModel) -> MappingModel {
        var plain = mapping.withoutLocations
        plain.path = ""
        return plain
    }

    static func roundTrip(_ mapping: MappingModel) throws -> ParsedMappingModel {
        try MappingModelParser.parse(Array(MappingModelWriter.xml(of: mapping).utf8), path: "Written.xcmappingmodel/xcmapping.xml")
    }

    @Test(.enabled(if: TestPaths.hasCorpus, "../shared/corpus is absent"), arguments: MappingModelParserTests.bundles)
    func everyCorpusMapping_readsBackAsItWasRead(_ bundle: String) throws {
        let original = try MappingModelParserTests.load(bundle).mappingModel
        let written = try Self.roundTrip(original)
        #expect(written.diagnostics.isEmpty)
        #expect(Self.withoutLocations(written.mappingModel) == Self.withoutLocations(original))
    }

    @Test func everyExpressionForm_readsBackAsTheSameText() throws {
        let expressions = [
            "$source.title", "$source.game.type", #"FUNCTION($entityPolicy, "stringIdForIntId:", $source.id)"#, #"FUNCTION($entityPolicy, "migrateIconURL")"#,
            #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "BookToBook", $source.books)"#,
            #""a \"quoted\" text""#, "42", "-7", "2.5", "YES", "NO", "nil", "{1, 2, 3}", "{$source.a, \"b\"}", "SELF", "$destination",
        ]
        let location = SourceLocation.generated
        let mapping = MappingModel(
            path: "", sourceModelPath: "Shop.xcdatamodeld/Shop 1.xcdatamodel", destinationModelPath: "Shop.xcdatamodeld/Shop 2.xcdatamodel",
            entityMappings: [EntityMapping(
                name: "ItemToItem", sourceEntityName: "Item", destinationEntityName: "Item",
                attributeMappings: expressions.enumerated().map { PropertyMapping(name: "a\($0.offset)", valueExpression: $0.element, location: location) },
                location: location)],
            location: location)
        let read = try Self.roundTrip(mapping).mappingModel.entityMappings[0].attributeMappings
        let byName = Dictionary(uniqueKeysWithValues: read.map { ($0.name, $0.valueExpression) })
        for (offset, expression) in expressions.enumerated() {
            #expect(byName["a\(offset)"] == expression)
        }
    }

    /// Operators and built-in functions come back in the form the predicate language prints, and
    /// read as the same expression.
    @Test(arguments: [
        ("$source.price * 2", "($source.price * 2)"), ("($source.a + 1) / $source.b", "(($source.a + 1) / $source.b)"),
        ("now()", "now()"), ("abs:($source.delta)", "abs:($source.delta)"), ("lowercase:($source.name)", "lowercase:($source.name)"),
    ])
    func operatorsAndFunctions_readBackAsTheSameExpression(_ written: String, _ read: String) throws {
        let location = SourceLocation.generated
        let mapping = MappingModel(
            path: "", sourceModelPath: nil, destinationModelPath: nil,
            entityMappings: [EntityMapping(
                name: "ItemToItem", sourceEntityName: "Item", destinationEntityName: "Item",
                attributeMappings: [PropertyMapping(name: "value", valueExpression: written, location: location)], location: location)],
            location: location)
        let text = try #require(try Self.roundTrip(mapping).mappingModel.entityMappings[0].attributeMappings[0].valueExpression)
        #expect(text == read)
        #expect(try PredicateLanguage.PredicateExpression(format: text) == PredicateLanguage.PredicateExpression(format: written))
    }

    @Test func namesPoliciesUserInfoSnapshotsAndKinds_readBack() throws {
        let location = SourceLocation.generated
        let mapping = MappingModel(
            path: "", sourceModelPath: "Shop.xcdatamodeld/Shop 1.xcdatamodel", destinationModelPath: "Shop.xcdatamodeld/Shop 2.xcdatamodel",
            sourceSnapshot: ModelSnapshot(properties: ["Item": ["name", "owner"], "Person": []]),
            destinationSnapshot: ModelSnapshot(properties: ["Product": ["title", "tags"], "Tag": ["label"]]),
            entityMappings: [
                EntityMapping(
                    name: "Products", sourceEntityName: "Item", destinationEntityName: "Product", migrationPolicyClassName: "Shop.ProductPolicy",
                    userInfo: ["origin": "catalog", "note": "<&>"],
                    attributeMappings: [PropertyMapping(name: "title", valueExpression: "$source.name", location: location)],
                    relationshipMappings: [PropertyMapping(name: "tags", sourceMappingName: "TagsFromPeople", location: location)],
                    location: location),
                EntityMapping(name: "ToTag", sourceEntityName: nil, destinationEntityName: "Tag", location: location),
                EntityMapping(name: "PersonTo", sourceEntityName: "Person", destinationEntityName: nil, location: location),
            ],
            location: location)
        let read = try Self.roundTrip(mapping)
        #expect(read.diagnostics.isEmpty)
        #expect(Self.withoutLocations(read.mappingModel) == Self.withoutLocations(mapping))
        #expect(read.mappingModel.entityMappings.map(\.kind) == [.transform, .add, .remove])
    }

    @Test func whatTheFormatIsNotKnownToHold_isRefused_notLeftOut() {
        let location = SourceLocation.generated
        var entityMapping = EntityMapping(name: "ItemToItem", sourceEntityName: "Item", destinationEntityName: "Item", location: location)
        entityMapping.filterPredicate = "price > 0"
        let filtered = MappingModel(path: "", sourceModelPath: nil, destinationModelPath: nil, entityMappings: [entityMapping], location: location)
        #expect(throws: MappingModelWriter.Unsupported.self) { try MappingModelWriter.xml(of: filtered) }

        entityMapping.filterPredicate = nil
        entityMapping.attributeMappings = [PropertyMapping(name: "count", valueExpression: "SUBQUERY($source.items, $i, $i.price > 0).@count", location: location)]
        let subquery = MappingModel(path: "", sourceModelPath: nil, destinationModelPath: nil, entityMappings: [entityMapping], location: location)
        #expect(throws: MappingModelWriter.Unsupported.self) { try MappingModelWriter.xml(of: subquery) }
    }
}
