import DataModel
import StoreMigration
import Testing

/// A mapping model checked against its two versions: each kind of mistake is found, located at
/// the mapping that makes it, and a sound mapping passes.
@Suite struct MappingModelLinterTests {
    static let source = MigrationSupport.version("V1", [
        Entity("Book", attributes: [Attribute("title", .string, isOptional: true), Attribute("pages", .integer32, isOptional: true)]),
    ])
    static let destination = MigrationSupport.version("V2", [
        Entity("Book", attributes: [Attribute("name", .string, isOptional: true), Attribute("pageCount", .integer64, isOptional: true)],
               relationships: [Relationship("shelf", destination: "Shelf", isOptional: true)]),
        Entity("Shelf", attributes: [Attribute("label", .string, isOptional: true)]),
    ])

    static func at(_ line: Int) -> DataModel.SourceLocation {
        DataModel.SourceLocation(file: "V1ToV2.xcmappingmodel/xcmapping.xml", line: line, column: 5)
    }

    static func diagnostics(_ mappings: [EntityMapping]) -> [String] {
        let mapping = MappingModel(path: "V1ToV2.xcmappingmodel/xcmapping.xml", sourceModelPath: nil, destinationModelPath: nil,
                                   entityMappings: mappings, location: at(1))
        return MappingModelLinter(source: source, destination: destination).diagnostics(of: mapping).map(\.description)
    }

    @Test func aSoundMapping_passes() {
        #expect(Self.diagnostics([
            EntityMapping(name: "BookToBook", sourceEntityName: "Book", destinationEntityName: "Book", migrationPolicyClassName: "App.BookPolicy",
                          attributeMappings: [
                              PropertyMapping(name: "name", valueExpression: "$source.title", location: Self.at(3)),
                              PropertyMapping(name: "pageCount", valueExpression: #"FUNCTION($entityPolicy, "pagesFor:", $source.pages)"#, location: Self.at(4)),
                          ],
                          relationshipMappings: [PropertyMapping(name: "shelf", sourceMappingName: "ToShelf", location: Self.at(5))],
                          location: Self.at(2)),
            EntityMapping(name: "ToShelf", sourceEntityName: nil, destinationEntityName: "Shelf", location: Self.at(6)),
        ]).isEmpty)
    }

    @Test func eachMistake_isALocatedError() {
        #expect(Self.diagnostics([
            EntityMapping(name: "BookToBook", sourceEntityName: "Book", destinationEntityName: "Book",
                          attributeMappings: [
                              PropertyMapping(name: "name", valueExpression: "$source.subtitle", location: Self.at(3)),
                              PropertyMapping(name: "pageCount", valueExpression: #"FUNCTION($entityPolicy, "pagesFor:", $source.pages)"#, location: Self.at(4)),
                              PropertyMapping(name: "isbn", location: Self.at(5)),
                              PropertyMapping(name: "name", valueExpression: "$source.title +", location: Self.at(6)),
                          ],
                          relationshipMappings: [
                              PropertyMapping(name: "shelf", valueExpression: #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "ShelfToShelf", $source.shelf)"#, location: Self.at(7)),
                          ],
                          location: Self.at(2)),
            EntityMapping(name: "NoteToNote", sourceEntityName: "Note", destinationEntityName: "Note", location: Self.at(8)),
        ]) == [
            "V1ToV2.xcmappingmodel/xcmapping.xml:3:5: error: BookToBook.name reads $source.subtitle, which the source entity Book does not have",
            "V1ToV2.xcmappingmodel/xcmapping.xml:4:5: error: BookToBook.pageCount calls $entityPolicy's pagesFor:, but BookToBook names no migration policy class",
            "V1ToV2.xcmappingmodel/xcmapping.xml:5:5: error: BookToBook: the destination entity Book has no attribute isbn",
            "V1ToV2.xcmappingmodel/xcmapping.xml:6:5: error: BookToBook.name: the value expression '$source.title +' does not read: expected a key path or a value, found end of input at column 16 in \"$source.title +\"",
            "V1ToV2.xcmappingmodel/xcmapping.xml:7:5: error: BookToBook.shelf asks for the objects of entity mapping ShelfToShelf, which the mapping model does not have",
            "V1ToV2.xcmappingmodel/xcmapping.xml:7:5: error: BookToBook.shelf reads $source.shelf, which the source entity Book does not have",
            "V1ToV2.xcmappingmodel/xcmapping.xml:8:5: error: NoteToNote maps from entity Note, which the source version V1 does not have",
            "V1ToV2.xcmappingmodel/xcmapping.xml:8:5: error: NoteToNote maps to entity Note, which the destination version V2 does not have",
        ])
    }
}
