import DataModel
import DataModelParser
import Foundation
import GRDB
import StoreSchema
import Testing
import TestSupport

/// The computed layout against stores written by Apple's Core Data (`../shared/corpus/stores` and
/// `../shared/stores-incoming`), each at the framework version that wrote it (frameworks 419 to 1347).
///
/// Tolerated, and why (also in DataStore's compatibility article):
/// - two migrated stores (`wire-ios-data-model__store2-101-0`, `CoreDataPlus__SampleModel_V2`) are
///   not compared: their migrations appended columns and kept stale names, so they are not
///   canonical (`energy-legacy__ArtsyPartner_1.4`'s in-place migration left its version's layout,
///   so it is compared);
/// - persistent-history (`ACHANGE`, `ATRANSACTION…`) and CloudKit (`ANSCK…`) bookkeeping tables and
///   their `Z_PRIMARYKEY` rows (16000 and up) are out of scope.
@Suite(.enabled(if: TestPaths.hasCorpus, "../shared/corpus is absent; store comparisons need it beside the repository"))
struct CoreDataStoreTests {
    static let migrated: Set<String> = ["wire-ios-data-model__store2-101-0", "CoreDataPlus__SampleModel_V2"]

    static func canonicalStores() -> [String] {
        CorpusStore.names().filter { !migrated.contains($0) }
    }

    /// The layout of the store's model at the framework version that wrote it, and a queue on a
    /// copy of its file.
    static func open(_ folderName: String) throws -> (schema: StoreSchema, database: DatabaseQueue) {
        let store = CorpusStore(folderName)
        let framework = FrameworkVersion(try store.frameworkVersion())
        return (StoreSchema(model: try store.model(), framework: framework), try DatabaseQueue(path: store.copyOfStoreFile().path))
    }

    static func isBookkeeping(_ table: String) -> Bool {
        ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"].contains(table) || table.hasPrefix("sqlite_")
            || table.hasPrefix("ACHANGE") || table.hasPrefix("ATRANSACTION") || table.hasPrefix("ANSCK")
    }

    @Test func corpus_hasCanonicalStores() {
        #expect(Self.canonicalStores().count == 9)
    }

    /// The rules that differ by framework version change the layout only where the store shows it.
    @Test func olderFrameworks_differOnlyWhereTheirStoresDo() throws {
        let wire = try CorpusStore("wire-ios-data-model__store1-28").model()
        let old = StoreSchema(model: wire, framework: FrameworkVersion(641)), new = StoreSchema(model: wire)
        #expect(old.tables.map(\.name) == new.tables.map(\.name))
        #expect(old.joinTables == new.joinTables)
        let message = try #require(old.tables.first { $0.name == "ZMESSAGE" }).columns.map(\.name)
        let orderKeys = try #require(message.firstIndex(of: "Z_FOK_VISIBLEINCONVERSATION"))
        #expect(message[(orderKeys - 1)...(orderKeys + 2)] == ["ZSYSTEMMESSAGETYPE", "Z_FOK_VISIBLEINCONVERSATION", "Z_FOK_HIDDENINCONVERSATION", "ZEXPIRATIONDATE"])
        #expect(old.indexes.contains { $0.name == "ZUSER_ZNORMALIZEDNAME_INDEX" && $0.keys.map(\.column) == ["ZNORMALIZEDNAME"] && !$0.keys[0].isCollated })
        #expect(new.indexes.contains { $0.name == "Z_User_normalizedName" })
        #expect(old.indexes.contains { $0.name == "ZCONVERSATION_ZINTERNALISARCHIVED_ZLASTMODIFIEDDATE" })
        #expect(StoreSchema(model: wire, framework: FrameworkVersion(419)).indexes.filter { $0.table.hasPrefix("Z_") }.isEmpty)
    }

    @Test(arguments: canonicalStores())
    func tablesAndColumns_matchTheStore(store: String) throws {
        let (schema, database) = try Self.open(store)
        let expected: [String: [String]] = try database.read { db in
            var tables: [String: [String]] = [:]
            for name in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") where !Self.isBookkeeping(name) {
                tables[name] = try Row.fetchAll(db, sql: "PRAGMA table_info(\(name))").map { "\($0["name"] as String) \($0["type"] as String)" }
            }
            return tables
        }
        var actual: [String: [String]] = [:]
        for table in schema.tables { actual[table.name] = table.columns.map { "\($0.name) \($0.type.rawValue)" } }
        for join in schema.joinTables { actual[join.name] = join.columnNames.map { "\($0) INTEGER" } }
        #expect(actual == expected)
    }

    @Test(arguments: canonicalStores())
    func indexes_matchTheStore(store: String) throws {
        let (schema, database) = try Self.open(store)
        let expected: [String: String] = try database.read { db in
            var indexes: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") {
                let table: String = row["tbl_name"]
                if !Self.isBookkeeping(table) { indexes[row["name"]] = row["sql"] }
            }
            return indexes
        }
        let statements = schema.createStatements.filter { $0.contains(" INDEX ") }
        var actual: [String: String] = [:]
        for statement in statements {
            let name = statement.components(separatedBy: " INDEX ")[1].components(separatedBy: " ")[0]
            actual[name] = String(statement.dropLast())  // sqlite_master keeps the text without the semicolon
        }
        #expect(actual == expected)
    }

    @Test(arguments: canonicalStores())
    func primaryKeyRows_matchTheStore(store: String) throws {
        let (schema, database) = try Self.open(store)
        let expected = try database.read { db in
            try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT")
                .map { "\($0[0] as Int) \($0[1] as String) \($0[2] as Int)" }
        }
        #expect(schema.primaryKeyRows.map { "\($0.number) \($0.name) \($0.superNumber)" } == expected)
    }
}
