import ArgumentParser
import DataModel
import Foundation
import GeneratorCommand
import PostgreSQLSchema
import StoreSchema

/// `datamodel-gen sql MODEL`: the SQLite schema Core Data would create for the model.
struct SQL: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Prints the SQLite schema of a model, in Core Data's own store layout.",
        discussion: """
            The tables, columns and indexes are the ones Core Data creates for the model: Z<ENTITY> \
            tables with Z_PK, Z_ENT and Z_OPT, subentities in their root's table, join tables for \
            many-to-many relationships, and the Z_PRIMARYKEY, Z_METADATA and Z_MODELCACHE tables, with \
            the Z_PRIMARYKEY rows of an empty store and its Z_METADATA row (the model version hashes \
            Core Data checks when it opens a store). Running the script in sqlite3 creates an empty \
            store; each run draws a new store UUID.

            Derived attributes come with the Z_DA_… triggers that keep them current. The triggers \
            call NSCoreDataDATriggerUpdatedAffectedObjectValue, its …InsertUpdated… twin, \
            NSCoreDataNow and DSDERIVEDTEXT: a program that writes such a store must register \
            those SQL functions (DataStore does).

            --views adds one read-only view per entity, named like the entity, with the model's \
            property names, dates as ISO 8601 text and UUIDs as hex — handy for looking inside a store \
            (an iOS app's included) with any SQL tool.

            --dialect postgresql prints the same tables, columns, indexes and bookkeeping rows for \
            PostgreSQL, with its types: bigint keys, smallint/integer/bigint, boolean, double \
            precision (dates stay Core Data's seconds since 2001, so they compare as in SQLite), \
            numeric for Decimal, text, uuid and bytea. Names are quoted, so the catalog spells them \
            as Core Data does. Run it with psql in an empty database.

            --framework-version N prints the layout an older Core Data release created, N as a \
            store's NSPersistenceFrameworkVersion gives it (a key of its Z_METADATA plist): before \
            851 (iOS 11) indexed attributes and compound indexes are named after their columns \
            (ZUSER_ZNAME_INDEX), before 754 a table's Z_FOK_ order keys follow all its integer \
            columns, and before 641 join tables have no reverse index. Without it, the layout of \
            new stores (framework \(FrameworkVersion.current)).

            A model with errors prints nothing and exits with 1.

            Examples:
              datamodel-gen sql Models/Books.xcdatamodeld
              datamodel-gen sql Models/FailedBanks.xcdatamodeld --views --output FailedBanks.sql
              datamodel-gen sql App/Model.xcdatamodeld --views | sqlite3 copy-of-app-store.sqlite
              datamodel-gen sql App/Model.xcdatamodeld --framework-version 641
              datamodel-gen sql Models/Books.xcdatamodeld --dialect postgresql | psql -v ON_ERROR_STOP=1 books
            """
    )

    @OptionGroup var options: ModelOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the schema to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(help: "Add a read-only view per entity, with the model's names and readable dates.")
    var views = false

    @Option(help: ArgumentHelp("sqlite (the default) or postgresql.", valueName: "dialect"))
    var dialect: SQLDialect = .sqlite

    @Option(help: ArgumentHelp(
        "The layout of this Core Data release (a store's NSPersistenceFrameworkVersion, e.g. 641) instead of today's.",
        valueName: "N"))
    var frameworkVersion: Int?

    func validate() throws {
        if let frameworkVersion, frameworkVersion <= 0 {
            throw ValidationError("--framework-version takes a release number such as 641 or 1344, as NSPersistenceFrameworkVersion gives it.")
        }
        if views, dialect == .postgresql {
            throw ValidationError("--views writes SQLite views (their dates and UUIDs use SQLite's functions); leave it out with --dialect postgresql.")
        }
    }

    func run() throws {
        let loaded = try options.load()
        loaded.diagnostics.forEach(StandardError.print)
        if loaded.diagnostics.containsErrors { throw ExitCode.failure }
        let framework = frameworkVersion.map(FrameworkVersion.init) ?? .current
        let schema = StoreSchema(model: loaded.model, framework: framework)
        var metadata = StoreMetadata(model: loaded.model)
        metadata.entries[StoreMetadata.Key.frameworkVersion] = .integer(framework.number)
        var text = dialect == .postgresql ? schema.postgreSQL(model: loaded.model, metadata: metadata) : schema.sql(metadata: metadata)
        if views { text += schema.viewStatements(for: loaded.model).joined(separator: "\n") + "\n" }
        try CommandOutput.emit(text, to: output, what: "schema")
    }
}

/// The engine a schema script is written for.
enum SQLDialect: String, ExpressibleByArgument, CaseIterable {
    case sqlite
    case postgresql
}
