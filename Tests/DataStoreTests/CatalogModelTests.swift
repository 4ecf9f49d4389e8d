import DataModel
@testable import DataStore
import Foundation
import GRDB
import StoreSchema
import Testing
import TestSupport

/// A store an old Core Data release wrote without a model cache opens with the model its catalog
/// tells: every entity and its hierarchy, every column as an attribute or a relationship, no
/// relationship that the app's model does not have, and every value the store holds read.
@Suite(.enabled(if: CorpusStore.isAvailable, "needs ../shared/corpus"))
struct CatalogModelTests {
    /// Every corpus store without a `Z_MODELCACHE`.
    static let storesWithoutCache: [String] = CorpusStore.names().filter { name in
        guard let url = try? CorpusStore(name).copyOfStoreFile() else { return false }
        return (try? DatabaseQueue(path: url.path).read { try !$0.tableExists("Z_MODELCACHE") }) == true
    }

    @Test func theCorpusHoldsAStoreWithoutCache() {
        #expect(!Self.storesWithoutCache.isEmpty)
    }

    /// SwiftData's store with its cache removed: its to-many relationships without inverse,
    /// kept in a hidden column of the destination's table (`ZCARTITEMMODEL.Z3ITEMS`), come back.
    @Test func aToManyWithoutInverse_comesBackFromItsHiddenColumn() throws {
        let folder = CorpusStore.corpus.deletingLastPathComponent().appendingPathComponent("stores-swiftdata/CartKit__CartKitSwiftData_v1")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("no-cache-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: folder.appendingPathComponent("CartKitSwiftData_v1.sqlite"), to: url)
        let carried = try PersistentStore.modelForStore(at: url)
        try DatabaseQueue(path: url.path).write { try $0.execute(sql: "DROP TABLE Z_MODELCACHE") }
        let (partial, _) = try PersistentStore.catalogModelForStore(at: url)
        func toMany(_ model: Model) -> [String] {
            model.entities.flatMap { entity in
                entity.relationships.filter(\.isToMany).map { "\(entity.name).\($0.name.lowercased()) → \($0.destinationEntityName)" }
            }.sorted()
        }
        #expect(toMany(partial) == ["CartItemModel.modifiers → CartItemModifierModel", "CartModel.items → CartItemModel"])
        #expect(toMany(partial) == toMany(carried))
        let store = try PersistentStore.readOnly(url: url, model: ManagedObjectModel(model: partial))
        let carts = try store.newContext().fetch(FetchRequest<ManagedObject>(entityName: "CartModel"))
        #expect(carts.count == 1)
        #expect(carts.allSatisfy { ($0.value(forKey: "items") as? Set<ManagedObject>) != nil })
    }

    @Test(arguments: storesWithoutCache)
    func aStoreWithoutCache_opensWithTheModelItsCatalogTells(_ name: String) throws {
        let corpus = CorpusStore(name)
        let url = try corpus.copyOfStoreFile()
        let app = try corpus.model()
        let (partial, unrecovered) = try PersistentStore.catalogModelForStore(at: url)
        #expect(unrecovered.contains { $0.contains("lower case") })

        // Entities, numbers and hierarchy are the app's.
        func hierarchy(_ model: Model) -> Set<String> { Set(model.entities.map { "\($0.name) < \($0.parentName ?? "-")" }) }
        #expect(hierarchy(partial) == hierarchy(app))
        #expect(StoreSchema(model: partial).tables.map(\.name).sorted() == StoreSchema(model: app).tables.map(\.name).sorted())

        // Every stored property of a hierarchy is recovered, by its lower-cased name; every
        // relationship recovered is one of the app's, to the same entity.
        func root(_ model: Model, _ name: String) -> String {
            var entity = model.entity(named: name)
            while let parent = entity?.parentName, let next = model.entity(named: parent) { entity = next }
            return entity?.name ?? name
        }
        func stored(_ model: Model) -> [String: Set<String>] {
            var byRoot: [String: Set<String>] = [:]
            for entity in model.entities {
                let names = entity.attributes.filter { !$0.isTransient }.map(\.name) + entity.relationships.filter { !$0.isTransient && !$0.isToMany }.map(\.name)
                byRoot[root(model, entity.name), default: []].formUnion(names.map { $0.lowercased() })
            }
            return byRoot
        }
        #expect(stored(partial) == stored(app))
        var recoveredRelationships = 0
        for entity in partial.entities {
            for relationship in entity.relationships {
                let matching = app.entities.filter { root(app, $0.name) == root(partial, entity.name) }.flatMap(\.relationships)
                    .first { $0.name.lowercased() == relationship.name && $0.isToMany == relationship.isToMany }
                #expect(matching.map { root(app, $0.destinationEntityName) } == root(partial, relationship.destinationEntityName),
                        "\(entity.name).\(relationship.name)")
                recoveredRelationships += 1
            }
        }
        #expect(recoveredRelationships > 0)

        // Every row of every entity reads, and no value the store holds reads as missing.
        let store = try PersistentStore.readOnly(url: url, model: ManagedObjectModel(model: partial))
        let context = store.newContext()
        let database = try DatabaseQueue(path: url.path)
        for entity in partial.entities where entity.parentName == nil {
            let table = "Z" + entity.name.uppercased()
            let objects = try context.fetch(FetchRequest<ManagedObject>(entityName: entity.name))
            #expect(objects.count == (try database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM \(table)") }), "\(entity.name)")
            for attribute in entity.attributes {
                let held = try database.read { try Int.fetchOne($0, sql: "SELECT count(Z\(attribute.name.uppercased())) FROM \(table)") } ?? 0
                #expect(objects.filter { $0.value(forKey: attribute.name) != nil }.count == held, "\(entity.name).\(attribute.name)")
            }
        }
    }
}
