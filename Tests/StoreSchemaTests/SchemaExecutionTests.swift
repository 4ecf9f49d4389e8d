import DataModel
import DataModelParser
import Foundation
import GRDB
import StoreSchema
import Testing

/// The DDL of every model — bundled samples and the whole corpus — runs in SQLite (the same SQLite,
/// through GRDB, that the runtime uses), views included, and is deterministic.
@Suite struct SchemaExecutionTests {
    static func sampleVersions() -> [String] {
        versionFolders(under: TestPaths.packageRoot.appendingPathComponent("Models"))
    }

    static func corpusVersions() -> [String] {
        TestPaths.hasCorpus ? versionFolders(under: TestPaths.corpus) : []
    }

    static func versionFolders(under root: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".xcdatamodel") }
            .map { root.appendingPathComponent($0).path }.sorted()
    }

    func expectExecutes(_ path: String) throws {
        let loaded = try ModelLoader().load(path)
        #expect(!loaded.diagnostics.containsErrors)
        let schema = StoreSchema(model: loaded.model)
        let database = try DatabaseQueue()
        try database.write { db in
            try db.execute(sql: schema.sql(metadata: StoreMetadata(model: loaded.model)))
            try db.execute(sql: schema.viewStatements(for: loaded.model).joined(separator: "\n"))
        }
        try database.read { db in
            let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table'")
            #expect(tables == schema.tables.count + schema.joinTables.count + 3)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM Z_PRIMARYKEY") == loaded.model.entities.count)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA"))
            #expect(row["Z_VERSION"] == 1)
            let uuid: String = row["Z_UUID"]
            #expect(UUID(uuidString: uuid)?.uuidString == uuid)
            let plist: Data = row["Z_PLIST"]
            #expect(try StoreMetadata(binaryPropertyList: Array(plist)) == StoreMetadata(model: loaded.model))
            for layout in schema.entities {  // every view is queryable
                _ = try Row.fetchAll(db, sql: "SELECT * FROM \"\(layout.name)\" LIMIT 1")
            }
        }
    }

    @Test(arguments: sampleVersions())
    func sampleModelSchema_executesInSQLite(path: String) throws {
        try expectExecutes(path)
    }

    @Test(.enabled(if: TestPaths.hasCorpus, "../shared/corpus is absent"), arguments: corpusVersions())
    func corpusModelSchema_executesInSQLite(path: String) throws {
        try expectExecutes(path)
    }

    @Test func samples_andCorpus_areFound() {
        #expect(Self.sampleVersions().count == 6)
        if TestPaths.hasCorpus { #expect(Self.corpusVersions().count >= 58) }
    }

    /// The same model with every list in the XML reversed gives byte-identical DDL.
    @Test(arguments: sampleVersions())
    func schema_isIndependentOfDocumentOrder(path: String) throws {
        let model = try ModelLoader().load(path).model
        var shuffled = model
        shuffled.entities = model.entities.reversed().map { entity in
            var copy = entity
            copy.attributes.reverse()
            copy.relationships.reverse()
            return copy
        }
        let sql = StoreSchema(model: model).sql(metadata: StoreMetadata(model: model))
        #expect(StoreSchema(model: shuffled).sql(metadata: StoreMetadata(model: shuffled)) == sql)
        #expect(StoreSchema(model: model).sql(metadata: StoreMetadata(model: model)) == sql)
    }
}
