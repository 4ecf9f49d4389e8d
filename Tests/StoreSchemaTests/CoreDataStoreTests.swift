import DataModel
import DataModelParser
import Foundation
import GRDB
import StoreSchema
import Testing
import TestSupport

/// The computed layout against stores written by Apple's Core Data (`../shared/corpus/stores`).
///
/// Tolerated, and why (also in the README's compatibility section):
/// - migrated stores (`wire-ios-data-model__store2-101-0`, `CoreDataPlus__SampleModel_V2`) are not
///   compared: migrations append columns and keep stale names, so they are not canonical;
/// - persistent-history (`ACHANGE`, `ATRANSACTION…`) and CloudKit (`ANSCK…`) bookkeeping tables and
///   their `Z_PRIMARYKEY` rows (16000 and up) are out of scope.
@Suite(.enabled(if: TestPaths.hasCorpus, "../shared/corpus is absent; store comparisons need it beside the repository"))
struct CoreDataStoreTests {
    static let migrated: Set<String> = ["wire-ios-data-model__store2-101-0", "CoreDataPlus__SampleModel_V2"]

    static func canonicalStores() -> [String] {
        CorpusStore.names().filter { !migrated.contains($0) }
    }

    /// The store's model and a read-only queue on a copy of its file.
    static func open(_ folderName: String) throws -> (schema: StoreSchema, database: DatabaseQueue) {
        let store = CorpusStore(folderName)
        return (StoreSchema(model: try store.model()), try DatabaseQueue(path: store.copyOfStoreFile().path))
    }

    static func isBookkeeping(_ table: String) -> Bool {
        ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"].contains(table) || table.hasPrefix("sqlite_")
            || table.hasPrefix("ACHANGE") || table.hasPrefix("ATRANSACTION") || table.hasPrefix("ANSCK")
    }

    @Test func corpus_hasCanonicalStores() {
        #expect(Self.canonicalStores().count == 6)
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
