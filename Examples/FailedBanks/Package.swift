// swift-tools-version: 6.1
import PackageDescription

// The classic Failed Banks tutorial on Linux: a few thousand banks in a store, paged through a
// FetchedResultsController in sections by state, with the SQL log and every delegate callback.
// The target's model (`Models/FailedBanks.xcdatamodeld`, the repository's sample) is compiled
// by the DataModelGenerator plugin.
let package = Package(
    name: "FailedBanks",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "DataModelKit", path: "../..")],
    targets: [
        .executableTarget(
            name: "failed-banks",
            dependencies: [.product(name: "DataStore", package: "DataModelKit")],
            exclude: ["Models"],
            plugins: [.plugin(name: "DataModelGenerator", package: "DataModelKit")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
