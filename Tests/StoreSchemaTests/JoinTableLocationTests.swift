import DataModel
import DataModelParser
import Foundation
import StoreSchema
import Testing

/// Join tables and columns found under the names a store gave them, when a Core Data release
/// chose another owner side or another collision suffix than the computed layout.
@Suite struct JoinTableLocationTests {
    /// The `ManyToMany` fixture: `Item.playlists` and `Item.tags` both have an inverse `items`,
    /// so their join tables' `Z_1ITEMS` columns collide and one takes the suffix.
    static func schema() throws -> StoreSchema {
        let loaded = try ModelLoader().load(TestPaths.packageRoot.appendingPathComponent("Tests/StoreSchemaTests/Fixtures/ManyToMany.xcdatamodel").path)
        return StoreSchema(model: loaded.model)
    }

    /// A catalog as `columns` lists it, asked as the runtime asks.
    static func locate(_ schema: StoreSchema, in catalog: [String: [String]]) throws -> StoreSchema {
        try schema.locatingJoinTables(among: catalog.keys.sorted()) { table, column in catalog[table]?.contains(column) ?? false }
    }

    @Test func theComputedLayout_staysAsItIs() throws {
        let schema = try Self.schema()
        let catalog = Dictionary(uniqueKeysWithValues: schema.joinTables.map { ($0.name, $0.columnNames) })
        let located = try Self.locate(schema, in: catalog)
        #expect(located.joinTables == schema.joinTables && located.indexes == schema.indexes)
    }

    @Test func collisionSuffixesInTheOtherOrder_areFoundByWhatEachColumnEncodes() throws {
        let schema = try Self.schema()
        let playlists = try #require(schema.joinTables.first { $0.name == "Z_1PLAYLISTS" })
        let tags = try #require(schema.joinTables.first { $0.name == "Z_1TAGS" })
        #expect(playlists.columnNames == ["Z_1ITEMS", "Z_2PLAYLISTS", "Z_FOK_1ITEMS"] && tags.columnNames == ["Z_1ITEMS1", "Z_3TAGS"])

        var catalog = Dictionary(uniqueKeysWithValues: schema.joinTables.map { ($0.name, $0.columnNames) })
        catalog["Z_1PLAYLISTS"] = ["Z_1ITEMS1", "Z_2PLAYLISTS", "Z_FOK_1ITEMS1"]
        catalog["Z_1TAGS"] = ["Z_1ITEMS", "Z_3TAGS"]
        let located = try Self.locate(schema, in: catalog)
        #expect(located.joinTables.first { $0.name == "Z_1PLAYLISTS" }?.columnNames == ["Z_1ITEMS1", "Z_2PLAYLISTS", "Z_FOK_1ITEMS1"])
        #expect(located.joinTables.first { $0.name == "Z_1TAGS" }?.columnNames == ["Z_1ITEMS", "Z_3TAGS"])
        let index = try #require(located.indexes.first { $0.table == "Z_1TAGS" })
        #expect(index.keys.map(\.column) == ["Z_3TAGS", "Z_1ITEMS"], "the join table's index follows its columns")
        #expect(located.tables == schema.tables)
    }

    @Test func twoCandidatesOfEqualStanding_areAnError() throws {
        let schema = try Self.schema()
        var catalog = Dictionary(uniqueKeysWithValues: schema.joinTables.map { ($0.name, $0.columnNames) })
        catalog["Z_1TAGS"] = ["Z_1ITEMS2", "Z_1ITEMS3", "Z_3TAGS"]
        #expect(throws: JoinTableLocationError.ambiguous(join: "Z_1TAGS", candidates: ["Z_1TAGS.Z_1ITEMS2", "Z_1TAGS.Z_1ITEMS3"])) {
            try Self.locate(schema, in: catalog)
        }
    }

    @Test func aTableOfTheOtherOwner_isFoundByItsColumns() throws {
        let schema = try Self.schema()
        var catalog = Dictionary(uniqueKeysWithValues: schema.joinTables.map { ($0.name, $0.columnNames) })
        catalog["Z_3ITEMS"] = catalog.removeValue(forKey: "Z_1TAGS")
        let located = try Self.locate(schema, in: catalog)
        #expect(located.joinTables.contains { $0.name == "Z_3ITEMS" && $0.columnNames == ["Z_1ITEMS1", "Z_3TAGS"] })
    }

    @Test func aCollisionStem_keepsTheEntityNumber() {
        #expect(StoreSchema.collisionStem(of: "Z_1ITEMS1") == "Z_1ITEMS")
        #expect(StoreSchema.collisionStem(of: "Z_23USERS") == "Z_23USERS")
        #expect(StoreSchema.collisionStem(of: "Z_12") == "Z_12")
    }
}
