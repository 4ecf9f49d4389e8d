import DataModel
import DataStore
import Foundation
import StoreMigration
import Testing

/// The mapping model `datamodel-gen new-mapping` starts from (`MappingModel.inferred`): it lints
/// clean and migrates a store as its rules say, renamed properties and a relationship to an
/// abstract entity's subentities included.
@Suite struct InferredMappingModelTests {
    typealias S = MigrationSupport

    /// A keeper of pets, dogs and cats under an abstract `Animal`.
    static func version(_ name: String, nameKey: String, petsKey: String, renamed: Bool) -> Model {
        let animal = [Attribute("name", .string, isOptional: true)]
        return S.version(name, [
            Entity("Keeper", attributes: [Attribute(nameKey, .string, isOptional: true, renamingIdentifier: renamed ? "name" : nil)], relationships: [
                Relationship(
                    petsKey, destination: "Animal", inverseName: "keeper", inverseEntityName: "Animal", isToMany: true, isOptional: true,
                    renamingIdentifier: renamed ? "pets" : nil),
            ]),
            Entity("Animal", isAbstract: true, attributes: animal, relationships: [
                Relationship("keeper", destination: "Keeper", inverseName: petsKey, inverseEntityName: "Keeper", isOptional: true),
            ]),
            Entity("Dog", parentName: "Animal"),
            Entity("Cat", parentName: "Animal"),
        ])
    }

    static let v1 = version("V1", nameKey: "name", petsKey: "pets", renamed: false)
    static let v2 = version("V2", nameKey: "fullName", petsKey: "animals", renamed: true)

    @Test func theInferredMapping_lintsClean_andMigratesRenamedProperties() throws {
        let mapping = MappingModel.inferred(
            from: Self.v1, to: Self.v2, sourceModelPath: "Pets.xcdatamodeld/V1.xcdatamodel", destinationModelPath: "Pets.xcdatamodeld/V2.xcdatamodel",
            path: "Pets1to2.xcmappingmodel/xcmapping.xml")
        #expect(mapping.entityMappings.map(\.name) == ["KeeperToKeeper", "DogToDog", "CatToCat"], "abstract entities get no mapping")
        #expect(MappingModelLinter(source: Self.v1, destination: Self.v2).diagnostics(of: mapping).isEmpty)
        let keeper = try #require(mapping.entityMapping(named: "KeeperToKeeper"))
        #expect(keeper.attributeMappings.map(\.valueExpression) == ["$source.name"])
        #expect(keeper.relationshipMappings.map(\.valueExpression) == [
            #"FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "pets", $source.pets)"#,
        ])

        let url = try S.store(Self.v1) { context in
            let keeper = try context.insertObject(entityName: "Keeper")
            try keeper.setValue("Ada", forKey: "name")
            for (entity, name) in [("Dog", "Rex"), ("Cat", "Tom")] {
                let pet = try context.insertObject(entityName: entity)
                try pet.setValue(name, forKey: "name")
                try pet.setValue(keeper, forKey: "keeper")
            }
        }
        let store = try S.open(url, Self.v2, versions: [Self.v1, Self.v2], migration: MigrationOptions(mappingModels: [mapping]))
        let keepers = try S.objects(store, "Keeper", by: "fullName")
        #expect(keepers.map { $0.value(forKey: "fullName") as? String } == ["Ada"])
        #expect(S.names(keepers.first?.value(forKey: "animals")) == ["Rex", "Tom"])
    }
}
