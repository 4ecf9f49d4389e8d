// swift-tools-version: 6.1
// DataModelKit's benchmarks: a separate package so the main build stays fast.
// Run from this folder: swift package --allow-writing-to-package-directory benchmark
import PackageDescription

let package = Package(
    name: "DataModelKitBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "DataModelKit", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // No malloc or ARC interposers: they add a header to every allocation and a hook to every
        // retain, which would tax the contender that allocates (or retains) more, not measure it.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: []),
        .package(url: "https://github.com/stencilproject/Stencil", from: "0.15.1"),
    ],
    targets: [
        // The synthetic 1,000-entity model every generator-side benchmark reads.
        .target(name: "SyntheticModel"),
        .executableTarget(name: "make-synthetic-model", dependencies: ["SyntheticModel"]),
        // A store schema's values made anew from a computed one: the floor of `StoreSchema(model:)`.
        .target(name: "SchemaValuesFloor", dependencies: [.product(name: "StoreSchema", package: "DataModelKit")]),
        // Loops one stage for profilers (perf, valgrind): profile-parse [ROUNDS] [parse|validate|schema|schema-floor]
        .executableTarget(
            name: "profile-parse",
            dependencies: [
                .product(name: "DataModel", package: "DataModelKit"),
                .product(name: "DataModelParser", package: "DataModelKit"),
                .product(name: "StoreSchema", package: "DataModelKit"), "SchemaValuesFloor", "SyntheticModel",
            ]
        ),
        // The runtime benchmarks' entity, and its floor (SQLite's C API) and peer (GRDB records).
        .target(
            name: "StoreFixtures",
            dependencies: [
                .product(name: "DataModel", package: "DataModelKit"),
                .product(name: "DataModelParser", package: "DataModelKit"),
                .product(name: "DataStore", package: "DataModelKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // Loops one runtime operation for profilers: profile-store insert|fetch[-floor|-peer] [ROUNDS]
        .executableTarget(
            name: "profile-store",
            dependencies: [
                "StoreFixtures", .product(name: "DataStore", package: "DataModelKit"), .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The runtime comparisons with every contender interleaved round by round: compare-runtime [ROUNDS]
        .executableTarget(
            name: "compare-runtime",
            dependencies: [
                "StoreFixtures",
                .product(name: "DataStore", package: "DataModelKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // Migrations of 1,000,000 rows against the floor, interleaved: compare-migration [ROUNDS]
        .executableTarget(
            name: "compare-migration",
            dependencies: [
                "StoreFixtures",
                .product(name: "DataStore", package: "DataModelKit"),
                .product(name: "StoreSchema", package: "DataModelKit"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // Batch requests and persistent history against the floor, interleaved: compare-batch [ROUNDS]
        .executableTarget(
            name: "compare-batch",
            dependencies: [
                "StoreFixtures",
                .product(name: "DataStore", package: "DataModelKit"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // Saving from a child context into its parent against saving to the store: compare-child-save [ROUNDS]
        .executableTarget(
            name: "compare-child-save",
            dependencies: ["StoreFixtures", .product(name: "DataStore", package: "DataModelKit")]
        ),
        // Heap bytes per materialised object: measure-object-memory (Linux).
        .executableTarget(
            name: "measure-object-memory",
            dependencies: [
                "StoreFixtures",
                .product(name: "DataStore", package: "DataModelKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: [
                "StoreFixtures",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "DataStore", package: "DataModelKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            path: "Benchmarks/StoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ControllerBenchmarks",
            dependencies: [
                "StoreFixtures",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "DataStore", package: "DataModelKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            path: "Benchmarks/ControllerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "FetchBenchmarks",
            dependencies: [
                "StoreFixtures",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "DataStore", package: "DataModelKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            path: "Benchmarks/FetchBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The default templates ported to Stencil (SwiftGen's engine): the generator's peer.
        .target(
            name: "StencilPort",
            dependencies: [
                .product(name: "Stencil", package: "Stencil"),
                .product(name: "SwiftGenerator", package: "DataModelKit"),
            ]
        ),
        // Loops generation for profilers: profile-generator [ROUNDS] [generate|stencil]
        .executableTarget(
            name: "profile-generator",
            dependencies: [
                .product(name: "DataModelParser", package: "DataModelKit"),
                .product(name: "SwiftGenerator", package: "DataModelKit"),
                "StencilPort", "SyntheticModel",
            ]
        ),
        .executableTarget(
            name: "GeneratorBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "DataModelParser", package: "DataModelKit"),
                .product(name: "SwiftGenerator", package: "DataModelKit"),
                "StencilPort", "SyntheticModel",
            ],
            path: "Benchmarks/GeneratorBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // libxml2 for the floor measurement (what `xmllint --noout` does, in process).
        .systemLibrary(name: "CLibXML2Floor", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .executableTarget(
            name: "ParserBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "DataModel", package: "DataModelKit"),
                .product(name: "DataModelParser", package: "DataModelKit"),
                .product(name: "StoreSchema", package: "DataModelKit"),
                "SchemaValuesFloor", "SyntheticModel",
            ],
            path: "Benchmarks/ParserBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "LibXML2Floor",
            dependencies: [.product(name: "Benchmark", package: "benchmark"), "CLibXML2Floor", "SyntheticModel"],
            path: "Benchmarks/LibXML2Floor",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
