// swift-tools-version: 6.1
import PackageDescription

// The Failed Banks list served over HTTP from PostgreSQL: a Hummingbird service that pages
// through the banks with a FetchedResultsController, with the classes the DataModelGenerator
// plugin compiles from the repository's sample model (`Models/FailedBanks.xcdatamodeld`).
let package = Package(
    name: "FailedBanksServer",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "DataModelKit", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.16.0"),
    ],
    targets: [
        .executableTarget(
            name: "failed-banks-server",
            dependencies: [
                .product(name: "DataStore", package: "DataModelKit"),
                .product(name: "PostgreSQLStore", package: "DataModelKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            exclude: ["Models"],
            plugins: [.plugin(name: "DataModelGenerator", package: "DataModelKit")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
