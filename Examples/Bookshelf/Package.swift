// swift-tools-version: 6.1
import PackageDescription

// An app whose target holds a Core Data model: `swift build` generates its classes through the
// DataModelGenerator plugin, and the program uses them with DataStore.
let package = Package(
    name: "Bookshelf",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "DataModelKit", path: "../..")],
    targets: [
        .executableTarget(
            name: "Bookshelf",
            dependencies: [.product(name: "DataStore", package: "DataModelKit")],
            exclude: ["Models"],
            plugins: [.plugin(name: "DataModelGenerator", package: "DataModelKit")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
