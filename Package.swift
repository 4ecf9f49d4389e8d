// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "DataModelKit",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "DataModel", targets: ["DataModel"]),
        .library(name: "DataModelParser", targets: ["DataModelParser"]),
        .library(name: "PredicateLanguage", targets: ["PredicateLanguage"]),
        .library(name: "StoreSchema", targets: ["StoreSchema"]),
        .library(name: "PostgreSQLSchema", targets: ["PostgreSQLSchema"]),
        .library(name: "StoreMigration", targets: ["StoreMigration"]),
        .library(name: "DataStore", targets: ["DataStore"]),
        .library(name: "PostgreSQLStore", targets: ["PostgreSQLStore"]),
        .library(name: "SwiftGenerator", targets: ["SwiftGenerator"]),
        .executable(name: "datamodel-gen", targets: ["datamodel-gen"]),
        .plugin(name: "DataModelGenerator", targets: ["DataModelGenerator"]),
        .plugin(name: "GenerateDataModelCode", targets: ["GenerateDataModelCode"]),
    ],
    traits: [
        // `datamodel-gen` with PostgreSQL stores: `postgresql://` URLs for `inspect` and `migrate`,
        // and `copy-store` (`swift run --traits PostgreSQL datamodel-gen …`). Off by default, so
        // the tool for files and models compiles no SwiftNIO, postgres-nio or BoringSSL. Apps that
        // keep their store on PostgreSQL link the `PostgreSQLStore` product, whatever the traits.
        .trait(name: "PostgreSQL"),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // The reference the tests check the model version hashes' SHA-2 against.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3" ..< "5.0.0"),
        // The PostgreSQL tests' client, and the PostgreSQL store's to come.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.3"),
        // `swift package generate-documentation`: the DocC catalogs of DataStore and the generator.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The model vocabulary, source locations, diagnostics and semantic validation.
        .target(name: "DataModel"),
        // libxml2 through a shim that keeps its ICU headers away from Foundation's (see the shim).
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // zlib, for the raw DEFLATE streams of a store's model cache.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // `.xcdatamodeld` / `.xcdatamodel` / `contents` XML → `DataModel`.
        .target(name: "DataModelParser", dependencies: ["DataModel", "CLibXML2", "PropertyLists", "PredicateLanguage"]),
        // Binary property lists and the keyed archives Core Data's files hold inside them.
        .target(name: "PropertyLists"),
        // Core Data's predicate and expression language: lexer, parser, values, formatting.
        .target(name: "PredicateLanguage"),
        // Core Data's SQLite layout for a model: numbering, tables, columns, indexes, DDL.
        .target(name: "StoreSchema", dependencies: ["DataModel", "PropertyLists", "CZlib"]),
        // The same layout in PostgreSQL's DDL: types, shortened names, the history's tables. Text
        // only, so the tool prints it with no PostgreSQL client.
        .target(name: "PostgreSQLSchema", dependencies: ["DataModel", "StoreSchema"]),
        .target(name: "StoreMigration", dependencies: ["DataModel", "StoreSchema", "PredicateLanguage"]),
        // The runtime generated code compiles against: store, contexts, managed objects.
        .target(
            name: "DataStore",
            dependencies: [
                "DataModel", "PredicateLanguage", "StoreSchema", "StoreMigration",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // Core Data's layout on PostgreSQL (postgres-nio), and copies of stores between SQLite and PostgreSQL.
        .target(
            name: "PostgreSQLStore",
            dependencies: [
                "DataModel", "StoreSchema", "PostgreSQLSchema", "DataStore", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Model → typed template context → Mustache templates → Swift files.
        .target(
            name: "SwiftGenerator",
            dependencies: [
                "DataModel", "PredicateLanguage", "StoreSchema", .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        // Writes `Templates/*.mustache` into `SwiftGenerator/DefaultTemplates.swift` (run by
        // `Scripts/embed-templates.sh`), so the CLI needs no resource folder.
        .executableTarget(name: "template-embedder"),
        // `datamodel-gen generate`, with the model options and diagnostics the other commands share.
        .target(
            name: "GeneratorCommand",
            dependencies: [
                "DataModel", "DataModelParser", "StoreMigration", "SwiftGenerator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The command-line tool's commands, for files and models, and the seam its PostgreSQL stores
        // plug into.
        .target(
            name: "DataModelGenCommands",
            dependencies: [
                "DataModel", "DataModelParser", "StoreSchema", "PostgreSQLSchema", "DataStore", "StoreMigration", "SwiftGenerator", "GeneratorCommand",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The tool's PostgreSQL stores.
        .target(
            name: "PostgreSQLCommands",
            dependencies: [
                "DataModel", "DataStore", "DataModelGenCommands", "GeneratorCommand", "PostgreSQLStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // The command-line tool; with the trait `PostgreSQL`, its PostgreSQL stores too.
        .executableTarget(
            name: "datamodel-gen",
            dependencies: ["DataModelGenCommands", .target(name: "PostgreSQLCommands", condition: .when(traits: ["PostgreSQL"]))]
        ),
        // The build plugins' tool: `generate` alone, so an app's build does not compile the store
        // commands' PostgreSQL client.
        .executableTarget(
            name: "datamodel-generate",
            dependencies: ["GeneratorCommand", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The build-tool plugin: a `swift build` of a target with models compiles their generated code.
        .plugin(name: "DataModelGenerator", capability: .buildTool(), dependencies: ["datamodel-generate"]),
        // The command plugin, for projects that commit the generated code.
        .plugin(
            name: "GenerateDataModelCode",
            capability: .command(
                intent: .custom(verb: "generate-data-model-code", description: "Writes the Swift generated from the target's models into Generated/"),
                permissions: [.writeToPackageDirectory(reason: "writes the generated Swift beside each model")]
            ),
            dependencies: ["datamodel-generate"]
        ),
        // Golden-file assertions shared by the test targets.
        .target(
            name: "TestSupport",
            dependencies: [
                "DataModel", "DataModelParser",
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "DataModelTests", dependencies: ["DataModel"]),
        .testTarget(
            name: "DataModelParserTests",
            dependencies: ["DataModel", "DataModelParser", "PredicateLanguage", "CLibXML2", "TestSupport"],
            exclude: ["Fixtures", "Goldens"]
        ),
        .testTarget(
            name: "StoreSchemaTests",
            dependencies: [
                "DataModel", "DataModelParser", "PropertyLists", "StoreSchema", "PostgreSQLSchema", "TestSupport", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Goldens", "Fixtures"]
        ),
        // `datamodel-gen` as the trait `PostgreSQL` builds it, which the tests of its PostgreSQL
        // stores run whatever traits the tests are built with.
        .executableTarget(
            name: "datamodel-gen-with-postgresql",
            dependencies: ["DataModelGenCommands", "PostgreSQLCommands"],
            path: "Tests/DataModelGenWithPostgreSQL"
        ),
        .testTarget(
            name: "DataModelGenTests",
            dependencies: [
                "datamodel-gen", "datamodel-gen-with-postgresql", "DataModel", "DataModelParser", "DataStore", "StoreSchema", "PostgreSQLStore", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The generator's output for the sample models, compiled: golden files the tests run against.
        .target(name: "GeneratedBooks", dependencies: ["DataStore"], path: "Tests/Generated/Books"),
        .target(name: "GeneratedEvents", dependencies: ["DataStore"], path: "Tests/Generated/Events"),
        .target(name: "GeneratedFailedBanks", dependencies: ["DataStore"], path: "Tests/Generated/FailedBanks"),
        .target(name: "GeneratedProducts", dependencies: ["DataStore"], path: "Tests/Generated/Products"),
        // `Library`: the module the Everything model's classes name (`representedClassName="Library.Book"`).
        .target(name: "Library", dependencies: ["DataStore"], path: "Tests/Generated/Everything"),
        .target(name: "GeneratedHostileNames", dependencies: ["DataStore"], path: "Tests/Generated/HostileNames"),
        .target(name: "GeneratedReadingList", dependencies: ["DataStore"], path: "Tests/Generated/ReadingList"),
        .testTarget(
            name: "SwiftGeneratorTests",
            dependencies: [
                "DataModel", "DataModelParser", "DataStore", "StoreSchema", "SwiftGenerator", "TestSupport",
                "GeneratedBooks", "GeneratedEvents", "GeneratedFailedBanks", "GeneratedProducts", "Library",
                "GeneratedHostileNames", "GeneratedReadingList",
            ],
            exclude: ["Fixtures", "Goldens"]
        ),
        // The tests' child process: saves in a loop, or migrates, until killed; writes history for
        // another process to read; or is one of several writers on a PostgreSQL store.
        .executableTarget(
            name: "durability-writer",
            dependencies: ["DataModelParser", "DataStore", "Library", "PostgreSQLStore", "WriterReports"],
            path: "Tests/DurabilityWriter"
        ),
        // What the writer processes report to the test that started them (no test library, which
        // an executable would have to find when it starts).
        .target(name: "WriterReports", path: "Tests/WriterReports"),
        .testTarget(
            name: "DataStoreTests",
            dependencies: [
                "DataModel", "DataModelParser", "DataStore", "StoreSchema", "TestSupport", "durability-writer", "WriterReports",
                "GeneratedBooks", "GeneratedFailedBanks", "GeneratedProducts", "GeneratedReadingList", "Library", "PostgreSQLStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
