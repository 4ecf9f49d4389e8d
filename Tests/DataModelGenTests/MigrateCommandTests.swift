import DataModelParser
import DataStore
import Foundation
import GRDB
import Testing
import TestSupport

/// `datamodel-gen diff` and `migrate`, run as a user runs them.
@Suite struct MigrateCommandTests {
    static let everything = "Models/Everything.xcdatamodeld"

    /// A model of one entity, `Item`, whose optional attribute `count` is of type `countType`.
    static func itemModel(countType: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Item">
                <attribute name="count" optional="YES" attributeType="\(countType)"/>
            </entity>
        </model>
        """
    }

    @Test func diff_printsChanges_andExitsWithFailureOnBlockingOnes() throws {
        let inferable = try CLITests.run("diff", Self.everything, Self.everything, "--old-version", "Everything 1")
        #expect(inferable.status == 0)
        #expect(inferable.standardOutput.hasPrefix("Everything 1 → Everything 2: 36 changes, all inferable\n"))
        #expect(inferable.standardOutput.contains("  Book.title: renamed from name\n"))
        let json = try CLITests.run("diff", Self.everything, Self.everything, "--old-version", "Everything 1", "--format", "json")
        let report = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect(report?["inferable"] as? Bool == true)
        #expect((report?["changes"] as? [[String: Any]])?.contains { $0["kind"] as? String == "entityAdded" && $0["entity"] as? String == "Item" } == true)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        func model(_ type: String) throws -> String {
            let path = directory.appendingPathComponent("\(type).xml").path
            try Self.itemModel(countType: type).write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let old = try model("String")
        let new = try model("Integer 64")
        let blocking = try CLITests.run("diff", old, new)
        #expect(blocking.status == 1)
        #expect(blocking.standardOutput.contains("\(new):4:9: error: Item.count: type String → Integer 64: a lightweight migration converts only between numbers and Booleans"))
    }

    /// A change the data decides: `diff` says what it depends on, `migrate --dry-run` what the
    /// store holds, and `migrate` refuses, naming the object, and changes nothing.
    @Test func aChangeTheDataDecides_isCheckedByTheDryRun_andRefusedWithItsObjects() throws {
        let bundle = FileManager.default.temporaryDirectory.appendingPathComponent("things-\(UUID().uuidString)/Things.xcdatamodeld")
        for (version, type) in [("Things 1", "Double"), ("Things 2", "Integer 16")] {
            let folder = bundle.appendingPathComponent("\(version).xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Self.itemModel(countType: type).write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        }
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Things 2.xcdatamodel</string></dict></plist>
            """.write(to: bundle.appendingPathComponent(".xccurrentversion"), atomically: true, encoding: .utf8)
        let diff = try CLITests.run("diff", bundle.path, bundle.path, "--old-version", "Things 1")
        #expect(diff.status == 0)
        #expect(diff.standardOutput.contains("Item.count: type Double → Integer 16 (only if every Item value is a whole number within Integer 16's range)"))

        let url = bundle.deletingLastPathComponent().appendingPathComponent("Things.sqlite")
        do {
            let version1 = try ModelLoader().loadVersions(bundle.path).versions[0].model
            let context = try PersistentStore(url: url, model: ManagedObjectModel(model: version1)).newContext()
            for count in [2.5, 3.0] { try context.insertObject(entityName: "Item").setValue(count, forKey: "count") }
            try context.save()
        }
        let original = try Data(contentsOf: url)
        let dryRun = try CLITests.run("migrate", url.path, "--model", bundle.path, "--dry-run")
        #expect(dryRun.status == 0, "\(dryRun.standardError)")
        #expect(dryRun.standardOutput.contains(
            "Checked first:\n  Item.count: every Item value is a whole number within Integer 16's range: 1 object in the way (Z_PK 1)\n"))
        let run = try CLITests.run("migrate", url.path, "--model", bundle.path)
        #expect(run.status == 1)
        #expect(run.standardError.contains("Item.count: type Double → Integer 16: 1 object in the way (Z_PK 1)"))
        #expect(try Data(contentsOf: url) == original)
    }

    @Test(.enabled(if: CorpusStore.isAvailable, "needs ../shared/corpus"))
    func migrate_dryRunChangesNothing_thenMigratesWithABackup() throws {
        let corpus = CorpusStore("CoreDataPlus__SampleModel_V2")
        let bundle = corpus.folder.appendingPathComponent("SampleModel.xcdatamodeld").path
        let url = try corpus.copyOfStoreFile()
        let original = try Data(contentsOf: url)
        let dryRun = try CLITests.run("migrate", url.path, "--model", bundle, "--to", "SampleModel3", "--dry-run")
        #expect(dryRun.status == 0)
        #expect(dryRun.standardOutput.hasPrefix("Migration SampleModel2 → SampleModel3\n"))
        #expect(try Data(contentsOf: url) == original)

        let run = try CLITests.run("migrate", url.path, "--model", bundle, "--to", "SampleModel3", "--keep-backup")
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("(125 of 125 rows)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: url.path + ".backup")) == original)
        #expect(try DatabaseQueue(path: url.path).read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
        let inspect = try CLITests.run("inspect", url.path, "--model", bundle, "--model-version", "SampleModel3", "--entity", "Car", "--count")
        #expect(inspect.standardOutput == "125\n")
        let again = try CLITests.run("migrate", url.path, "--model", bundle, "--to", "SampleModel3")
        #expect(again.standardOutput.contains("already at version SampleModel3"))
    }

    /// A corpus app laid out as a project keeps it: its model bundle, and its mapping model in a
    /// `Migrations` folder beside it; a store at `version` of the bundle.
    static func project(_ folder: String, storeVersion version: String) throws -> (bundle: String, store: URL) {
        let source = CorpusStore.corpus.appendingPathComponent("mappings/\(folder)")
        let project = FileManager.default.temporaryDirectory.appendingPathComponent("project-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: project.appendingPathComponent("Migrations"), withIntermediateDirectories: true)
        var bundle = ""
        for item in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            if item.hasSuffix(".xcdatamodeld") {
                bundle = project.appendingPathComponent(item).path
                try FileManager.default.copyItem(atPath: source.appendingPathComponent(item).path, toPath: bundle)
            } else if item.hasSuffix(".xcmappingmodel") {
                try FileManager.default.copyItem(at: source.appendingPathComponent(item), to: project.appendingPathComponent("Migrations/\(item)"))
            }
        }
        // The corpus keeps only the two versions a mapping connects, without saying which is current: the later one is.
        let current = URL(fileURLWithPath: bundle).appendingPathComponent(".xccurrentversion")
        if !FileManager.default.fileExists(atPath: current.path) {
            let latest = try FileManager.default.contentsOfDirectory(atPath: bundle).filter { $0.hasSuffix(".xcdatamodel") }
                .map { $0.dropLast(".xcdatamodel".count) }.max { $0.localizedStandardCompare($1) == .orderedAscending }! + ".xcdatamodel"
            try """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>\(latest)</string></dict></plist>
                """.write(to: current, atomically: true, encoding: .utf8)
        }
        let store = project.appendingPathComponent("App.sqlite")
        let model = try ModelLoader().load(bundle, version: version).model
        _ = try PersistentStore(url: store, model: ManagedObjectModel(model: model))
        return (bundle, store)
    }

    /// `migrate` finds the mapping model in the project, runs it for the step it connects and a
    /// lightweight migration for the next; a mapping that names a policy the tool cannot have
    /// stops it before anything changes.
    @Test(.enabled(if: CorpusStore.isAvailable, "needs ../shared/corpus"))
    func migrate_runsTheMappingModelsItFindsBesideTheBundle() throws {
        let (bundle, store) = try Self.project("srguserdata-apple__SRGUserData_v5_v6", storeVersion: "SRGUserData_v5")
        let dryRun = try CLITests.run("migrate", store.path, "--model", bundle, "--dry-run")
        #expect(dryRun.status == 0, "\(dryRun.standardError)")
        #expect(dryRun.standardOutput.hasPrefix("Steps:\n  1. SRGUserData_v5 → SRGUserData_v6 by the mapping model "))
        #expect(dryRun.standardOutput.contains("Migrations/SRGUserData_v5_v6.xcmappingmodel ("))
        #expect(dryRun.standardOutput.hasSuffix("\n  2. SRGUserData_v6 → SRGUserData_v7, lightweight\n"))
        let run = try CLITests.run("migrate", store.path, "--model", bundle)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasSuffix("App.sqlite from SRGUserData_v5 to SRGUserData_v7.\n"), "\(run.standardOutput)")
        let again = try CLITests.run("migrate", store.path, "--model", bundle)
        #expect(again.standardOutput.contains("already at version"), "\(again.standardOutput)")

        let (altStore, altStoreFile) = try Self.project("AltStore__AltStoreToAltStore2", storeVersion: "AltStore")
        let original = try Data(contentsOf: altStoreFile)
        let refused = try CLITests.run("migrate", altStoreFile.path, "--model", altStore)
        #expect(refused.status == 1, "\(refused.standardOutput)")
        #expect(refused.standardError.contains("StoreAppToStoreAppMigrationPolicy"), "\(refused.standardError)")
        #expect(try Data(contentsOf: altStoreFile) == original)
    }

    /// Core Data's version 1 store, copied to PostgreSQL and migrated there, reads as the store
    /// Core Data migrated to version 2 itself.
    @Test(.enabled(if: CorpusStore.isAvailable, "needs ../shared/corpus"), .enabled(if: PostgreSQLTestServer.url != nil, PostgreSQLTestServer.unavailableReason))
    func migrate_onPostgreSQL_leavesWhatCoreDataLeaves() async throws {
        let before = CorpusStore("CoreDataPlus__SampleModel_V1")
        let after = CorpusStore("CoreDataPlus__SampleModel_V2")
        let bundle = before.folder.appendingPathComponent("SampleModel.xcdatamodeld").path
        try await PostgreSQLTestServer.withEmptyDatabase { database in
            let copy = try CLITests.runWithPostgreSQL("copy-store", before.copyOfStoreFile().path, database, "--model", bundle, "--model-version", "SampleModel")
            try #require(copy.status == 0, "\(copy.standardError)")
            let dryRun = try CLITests.runWithPostgreSQL("migrate", database, "--model", bundle, "--to", "SampleModel2", "--dry-run")
            #expect(dryRun.status == 0, "\(dryRun.standardError)")
            #expect(dryRun.standardOutput.hasPrefix("Migration SampleModel → SampleModel2\n"))
            #expect(dryRun.standardOutput.contains(#"ALTER TABLE "ZCAR""#), "the server's SQL, its names quoted")
            let backup = try CLITests.runWithPostgreSQL("migrate", database, "--model", bundle, "--to", "SampleModel2", "--keep-backup")
            #expect(backup.status == 64, "a usage error, before anything is read")
            #expect(backup.standardError.contains("pg_dump"))

            let run = try CLITests.runWithPostgreSQL("migrate", database, "--model", bundle, "--to", "SampleModel2")
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.standardOutput.contains("Migrated postgresql://"))
            let ours = try CLITests.runWithPostgreSQL("inspect", database, "--model", bundle, "--model-version", "SampleModel2")
            let theirs = try CLITests.runWithPostgreSQL("inspect", after.copyOfStoreFile().path, "--model", bundle, "--model-version", "SampleModel2")
            try #require(ours.status == 0, "\(ours.standardError)")
            // The stores' identifiers differ: object IDs are compared past them.
            let identifier = /x-coredata:\/\/[0-9A-F-]+\//
            #expect(ours.standardOutput.replacing(identifier, with: "x-coredata://") == theirs.standardOutput.replacing(identifier, with: "x-coredata://"))
            #expect(ours.standardOutput.contains("\"Car\""))
            let again = try CLITests.runWithPostgreSQL("migrate", database, "--model", bundle, "--to", "SampleModel2")
            #expect(again.standardOutput.contains("already at version SampleModel2"))
        }
    }
}

/// `datamodel-gen lint-mapping`, on the corpus's mapping models and on a broken copy of one.
@Suite(.enabled(if: CorpusStore.isAvailable, "needs ../shared/corpus"))
struct LintMappingCommandTests {
    static let folder = CorpusStore.corpus.appendingPathComponent("mappings/AltStore__AltStoreToAltStore2")

    @Test func aCorpusMapping_lintsClean_againstTheVersionsItsSnapshotsName() throws {
        let run = try CLITests.run(
            "lint-mapping", Self.folder.appendingPathComponent("AltStoreToAltStore2.xcmappingmodel").path,
            "--model", Self.folder.appendingPathComponent("AltStore.xcdatamodeld").path)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasSuffix(": AltStore → AltStore 2, 9 entity mappings\n"))
        #expect(run.standardError.isEmpty)
    }

    @Test func aMappingToAnEntityTheVersionLacks_failsAtItsLine() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("lint-mapping-\(UUID().uuidString)/Broken.xcmappingmodel")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        let original = try String(contentsOf: Self.folder.appendingPathComponent("AltStoreToAltStore2.xcmappingmodel/xcmapping.xml"), encoding: .utf8)
        let broken = original.replacingOccurrences(
            of: #"<attribute name="destinationname" type="string">Account</attribute>"#,
            with: #"<attribute name="destinationname" type="string">Acount</attribute>"#)
        try #require(broken != original)
        try broken.write(to: copy.appendingPathComponent("xcmapping.xml"), atomically: true, encoding: .utf8)
        let line = try #require(broken.components(separatedBy: "\n").firstIndex { $0.contains(#"<object type="XDDEVENTITYMAPPING" id="z104">"#) }) + 1
        let run = try CLITests.run(
            "lint-mapping", copy.path, "--model", Self.folder.appendingPathComponent("AltStore.xcdatamodeld").path,
            "--source-version", "AltStore", "--destination-version", "AltStore 2")
        #expect(run.status == 1)
        #expect(run.standardError.contains(
            "\(copy.path)/xcmapping.xml:\(line):5: error: AccountToAcount maps to entity Acount, which the destination version AltStore 2 does not have"))
    }
}
