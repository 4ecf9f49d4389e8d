import ArgumentParser
import DataModel
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

            Mapping models (.xcmappingmodel) in the bundle's folder and its subfolders, and those \
            named with --mapping, run for the steps between the versions they connect, as Core Data \
            runs the ones it finds; the others are skipped. One that names a migration policy runs \
            only in the app that provides the policy: here it stops the command before anything is \
            changed. The command runs mapping models on file stores only.

            Examples:
              datamodel-gen migrate Library.sqlite --model Models/Everything.xcdatamodeld --dry-run
              datamodel-gen migrate Library.sqlite --model Models/Everything.xcdatamodeld --keep-backup
              datamodel-gen migrate App.sqlite --model App/Model.xcdatamodeld --to "Model 3"
              datamodel-gen migrate postgresql://app@db.local/shop --model Models/Shop.xcdatamodeld
              datamodel-gen migrate Library.sqlite --model Models/Library.xcdatamodeld --mapping Migrations/V1ToV2.xcmappingmodel
            """
    )

    @Argument(help: "The store to migrate: a file (.sqlite), or a postgresql:// URL.")
    var store: String

    @Option(help: ArgumentHelp("The model bundle (.xcdatamodeld) holding the store's version and the target.", valueName: "bundle"))
    var model: String

    @Option(help: ArgumentHelp("The version to migrate to (default: the bundle's current version).", valueName: "version"))
    var to: String?

    @Option(name: .customLong("mapping"), help: ArgumentHelp("A mapping model to run where it applies, besides those found beside the bundle (repeatable).", valueName: "xcmappingmodel"))
    var mappings: [String] = []

    @Flag(name: .customLong("dry-run"), help: "Print the plan and change nothing.")
    var dryRun = false

    @Flag(name: .customLong("keep-backup"), help: "Keep the store as it was beside it, as STORE.backup.")
    var keepBackup = false

    func run() async throws {
        let loaded = try ModelOptions.loadVersions(model, current: nil)
        let versions = loaded.versions.map(\.model)
        let objectModel = ManagedObjectModel(model: versions[loaded.current], versions: versions)
        let location = try StoreArgument(store)
        if case .server = location, keepBackup {
            throw ValidationError("--keep-backup copies a store file; back a PostgreSQL database up with pg_dump")
        }
        let name = location.displayName(typed: store)
        let mappingModels = try loadMappingModels()
        do {
            if case .file(let url) = location, !mappingModels.isEmpty {
                var options = progressReports
                options.mappingModels = mappingModels
                let steps = try PersistentStore.migrationSteps(at: url, model: objectModel, to: to, options: options)
                if steps.contains(where: { if case .mapping = $0.kind { true } else { false } }) {
                    print("Steps:")
                    for (number, step) in steps.enumerated() { print("  \(number + 1). \(step)") }
                    guard !dryRun else { return }
                    try migrate(url, objectModel, options: options)
                    print("Migrated \(name) from \(steps[0].sourceVersion) to \(steps[steps.count - 1].destinationVersion)"
                        + (keepBackup ? "; the store as it was is \(store).backup" : "") + ".")
                    return
                }
            }
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
                try migrate(url, objectModel, options: progressReports)
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

    /// The mapping models named and those found near the bundle, each once; one that does not
    /// read, or reads with an error, stops the command with its diagnostics.
    private func loadMappingModels() throws -> [MappingModel] {
        let named = mappings.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        var loaded: [MappingModel] = []
        for path in named + MappingModelParser.mappingModelPaths(near: model).filter({ !named.contains($0) }) {
            do {
                let parsed = try MappingModelParser.load(path)
                for diagnostic in parsed.diagnostics { StandardError.print(diagnostic) }
                guard !parsed.diagnostics.contains(where: { $0.severity == .error }) else { throw ExitCode.failure }
                loaded.append(parsed.mappingModel)
            } catch let error as ModelLoadingError {
                StandardError.print(error.diagnostic)
                throw ExitCode.failure
            }
        }
        return loaded
    }

    /// Progress reports on standard error.
    private var progressReports: MigrationOptions {
        MigrationOptions { report in StandardError.write(report.description) }
    }

    /// Migrates a copy, then renames it over the store. The store's write-ahead log is emptied
    /// first, so no stale log can ever be applied to the migrated file.
    private func migrate(_ url: URL, _ objectModel: ManagedObjectModel, options: MigrationOptions) throws {
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
            try PersistentStore.migrateStore(at: copy, model: objectModel, to: to, options: options)
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
