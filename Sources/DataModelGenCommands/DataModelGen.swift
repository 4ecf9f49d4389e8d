import ArgumentParser
import GeneratorCommand

/// The `datamodel-gen` tool: its commands, and a server's when one is installed (`ServerStores`).
package struct DataModelGen: AsyncParsableCommand {
    package init() {}

    /// Lets every command take a store file where it takes a model: the model the store carries
    /// (``CarriedModel``). The tool's entry point calls it before any command is parsed.
    package static func installCarriedModels() {
        CarriedModels.install { path in try CarriedModel.ofStore(at: path) }
    }

    package static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "datamodel-gen",
            abstract: "Reads Core Data models (.xcdatamodeld, .xcdatamodel): checks them, generates typed Swift for DataStore, prints their SQLite schema, and reads the stores they describe.",
            discussion: """
                MODEL is an .xcdatamodeld bundle (its current version is read, or the one named with \
                --model-version), an .xcdatamodel folder, or a bare 'contents' file — or a store file \
                (.sqlite, SwiftData's default.store), for the model it carries.

                Problems are printed compiler-style, so editors and build logs link to the model file:
                  Models/Shop.xcdatamodel/contents:42:7: error: relationship 'owner' of entity 'Car' has unknown destination entity 'Persn'

                Examples:
                  datamodel-gen lint Models/FailedBanks.xcdatamodeld
                  datamodel-gen lint Models/Everything.xcdatamodeld --model-version "Everything 1"
                  datamodel-gen lint MyApp/Model.xcdatamodeld --warnings-as-errors
                  datamodel-gen dump Models/Books.xcdatamodeld --format json > books.json
                  datamodel-gen dump Models/Products.xcdatamodeld --format summary
                  datamodel-gen generate Models/Books.xcdatamodeld --output-directory Sources/App/Generated
                  datamodel-gen dump-context Models/Books.xcdatamodeld
                  datamodel-gen sql Models/Books.xcdatamodeld --views
                  datamodel-gen diagram Models/Everything.xcdatamodeld --format dot | dot -Tsvg > Everything.svg
                  datamodel-gen inspect Books.sqlite --model Models/Books.xcdatamodeld --format table
                  datamodel-gen diff Models/Everything.xcdatamodeld Models/Everything.xcdatamodeld --old-version "Everything 1"
                  datamodel-gen migrate Library.sqlite --model Models/Everything.xcdatamodeld --dry-run
                  datamodel-gen lint-mapping Models/V1ToV2.xcmappingmodel --model Models/App.xcdatamodeld
                  datamodel-gen extract-model Customer.sqlite -o Customer.xcdatamodel
                  datamodel-gen generate Customer.sqlite -o Generated
                  datamodel-gen copy-store Library.sqlite postgresql://app@127.0.0.1/app --model Models/Everything.xcdatamodeld

                PostgreSQL stores (postgresql:// URLs for inspect and migrate, and copy-store) need \
                the tool built with the package trait PostgreSQL:
                  swift run --traits PostgreSQL datamodel-gen copy-store …
                """,
            subcommands: [Lint.self, Dump.self, SQL.self, Generate.self, DumpContext.self, Inspect.self, Diff.self, Migrate.self, LintMapping.self, NewMapping.self, ExtractModel.self]
                + (ServerStores.current?.commands ?? []) + [Diagram.self]
        )
    }
}
