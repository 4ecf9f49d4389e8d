import ArgumentParser
import DataModelParser
import DataStore
import Foundation
import GRDB
import GeneratorCommand

/// `datamodel-gen migrate STORE --model BUNDLE`: carries a store to another version of its model.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Migrates a store to another version of its model, or prints the plan (--dry-run).",
        discussion: """
            Finds which version of the bundle wrote STORE (by its version hashes), prints the plan \
            — the model changes, what each table goes through, and the SQL — and, without \
            --dry-run, runs it: on a copy of the store first, in one transaction, and then puts the \
            copy in place of the store with one rename, so the store is never half-migrated. Long \
            copies report their progress on standard error.

            STORE may be a PostgreSQL database (postgresql://user@host:port/database): there each \
            step is one transaction, which PostgreSQL undoes whole if anything fails, so the store \
            is never half-migrated either; back it up with pg_dump first if you want a copy.

            A change a lightweight migration cannot infer stops the command before anything is \
            changed, with the model location of every such change; so does data that does not allow \
            a change (a value that becomes required without a default, a new uniqueness constraint \
            the values break).

            Examples:
              datamodel-gen migrate Library.sqlite --model Models/Everything.xcdatamodeld --dry-run
              datamodel-gen migrate Library.sqlite --model Models/Everything.xcdatamodeld --keep-backup
              datamodel-gen migrate App.sqlite --model App/Model.xcdatamodeld --to "Model 3"
              datamodel-gen migrate postgresql://app@db.local/shop --model Models/Shop.xcdatamodeld
            """
    )

    @Argument(help: "The store to migrate: a file (.sqlite), or a postgresql:// URL.")
    var store: String

    @Option(help: ArgumentHelp("The model bundle (.xcdatamodeld) holding the store's version and the target.", valueName: "bundle"))
    var model: String

    @Option(help: ArgumentHelp("The version to migrate to (default: the bundle's current version).", valueName: "version"))
    var to: String?

    @Flag(name: .customLong("dry-run"), help: "Print the plan and change nothing.")
    var dryRun = false

    @Flag(name: .customLong("keep-backup"), help: "Keep the store as it was beside it, as STORE.backup.")
    var keepBackup = false

    func run() async throws {
        let loaded: (versions: [ModelLoader.Result], current: Int)
        do {
            loaded = try ModelLoader().loadVersions(model)
        } catch {
            StandardError.print(error.diagnostic)
            throw ExitCode.failure
        }
        let versions = loaded.versions.map(\.model)
        let objectModel = ManagedObjectModel(model: versions[loaded.current], versions: versions)
        let location = try StoreArgument(store)
        if case .server = location, keepBackup {
            throw ValidationError("--keep-backup copies a store file; back a PostgreSQL database up with pg_dump")
        }
        let name = location.displayName(typed: store)
        do {
            let plan: MigrationPlan?
            switch location {
            case .file(let url): plan = try PersistentStore.migrationPlan(at: url, model: objectModel, to: to)
            case .server(let url, let server): plan = try await server.migrationPlan(of: url, model: objectModel, to: to)
            }
            guard let plan else {
                print("\(name) is already at version \(to ?? versions[loaded.current].versionName ?? model); nothing to do.")
                return
            }
            print(plan)
            guard !dryRun else { return }
            switch location {
            case .file(let url):
                try migrate(url, objectModel)
            case .server(let url, let server):
                try await server.migrate(url, model: objectModel, to: to, options: progressReports)
            }
            print("Migrated \(name) from \(plan.sourceVersion) to \(plan.destinationVersion)"
                + (keepBackup ? "; the store as it was is \(store).backup" : "") + ".")
        } catch {
            StandardError.write("\(name): error: \(error)")
            throw ExitCode.failure
        }
    }

    /// Progress reports on standard error.
    private var progressReports: MigrationOptions {
        MigrationOptions { report in StandardError.write(report.description) }
    }

    /// Migrates a copy, then renames it over the store. The store's write-ahead log is emptied
    /// first, so no stale log can ever be applied to the migrated file.
    private func migrate(_ url: URL, _ objectModel: ManagedObjectModel) throws {
        let copy = URL(fileURLWithPath: store + ".migrating")
        try? FileManager.default.removeItem(at: copy)
        do {
            let original = try DatabaseQueue(path: url.path)
            try original.writeWithoutTransaction { db in
                if try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal" { try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            }
            try original.backup(to: DatabaseQueue(path: copy.path))
        }
        do {
            try PersistentStore.migrateStore(at: copy, model: objectModel, to: to, options: progressReports)
        } catch {
            try? FileManager.default.removeItem(at: copy)
            throw error
        }
        if keepBackup {
            let backup = URL(fileURLWithPath: store + ".backup")
            try? FileManager.default.removeItem(at: backup)
            try FileManager.default.copyItem(at: url, to: backup)
        }
        guard rename(copy.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
    }
}
