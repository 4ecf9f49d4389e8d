// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "DataModelKit",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "DataModel", targets: ["DataModel"]),
        .library(name: "DataModelParser", targets: ["DataModelParser"]),
        .library(name: "StoreSchema", targets: ["StoreSchema"]),
        .library(name: "DataStore", targets: ["DataStore"]),
        .executable(name: "datamodel-gen", targets: ["datamodel-gen"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
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
        // `.xcdatamodeld` / `.xcdatamodel` / `contents` XML → `DataModel`.
        .target(name: "DataModelParser", dependencies: ["DataModel", "CLibXML2"]),
        // Core Data's SQLite layout for a model: numbering, tables, columns, indexes, DDL.
        .target(name: "StoreSchema", dependencies: ["DataModel"]),
        // The runtime generated code compiles against: store, contexts, managed objects.
        .target(
            name: "DataStore",
            dependencies: [
                "DataModel", "StoreSchema",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The command-line tool.
        .executableTarget(
            name: "datamodel-gen",
            dependencies: [
                "DataModel",
                "DataModelParser",
                "StoreSchema",
                "DataStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Golden-file assertions shared by the test targets.
        .target(name: "TestSupport", dependencies: ["DataModel", "DataModelParser"], path: "Tests/TestSupport"),
        .testTarget(name: "DataModelTests", dependencies: ["DataModel"]),
        .testTarget(
            name: "DataModelParserTests",
            dependencies: ["DataModel", "DataModelParser", "CLibXML2", "TestSupport"],
            exclude: ["Fixtures", "Goldens"]
        ),
        .testTarget(
            name: "StoreSchemaTests",
            dependencies: [
                "DataModel", "DataModelParser", "StoreSchema", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Goldens", "Fixtures"]
        ),
        .testTarget(
            name: "DataModelGenTests",
            dependencies: [
                "datamodel-gen", "DataModel", "DataModelParser", "DataStore", "StoreSchema", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Saves in a loop until killed; the durability test's child process.
        .executableTarget(name: "durability-writer", dependencies: ["DataModelParser", "DataStore"], path: "Tests/DurabilityWriter"),
        .testTarget(
            name: "DataStoreTests",
            dependencies: [
                "DataModel", "DataModelParser", "DataStore", "StoreSchema", "TestSupport", "durability-writer",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
