// swift-tools-version: 6.1
// DataModelKit's benchmarks: a separate package so the main build stays fast.
// Run from this folder: swift package --allow-writing-to-package-directory benchmark
import PackageDescription

let package = Package(
    name: "DataModelKitBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "DataModelKit", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The synthetic 1,000-entity model every generator-side benchmark reads.
        .target(name: "SyntheticModel"),
        .executableTarget(name: "make-synthetic-model", dependencies: ["SyntheticModel"]),
        // Loops one stage for profilers (perf, valgrind): profile-parse [ROUNDS] [parse|validate|schema]
        .executableTarget(
            name: "profile-parse",
            dependencies: [
                .product(name: "DataModel", package: "DataModelKit"),
                .product(name: "DataModelParser", package: "DataModelKit"),
                .product(name: "StoreSchema", package: "DataModelKit"), "SyntheticModel",
            ]
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
                "SyntheticModel",
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
