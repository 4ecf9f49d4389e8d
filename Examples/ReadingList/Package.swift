// swift-tools-version: 6.1
import PackageDescription

// An app whose model has two versions and a mapping model between them: `swift build` compiles
// both versions, the mapping model and typed keys for its migration policy through the
// DataModelGenerator plugin, and opening an old store runs the mapping with the app's policy.
let package = Package(
    name: "ReadingList",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "DataModelKit", path: "../..")],
    targets: [
        .executableTarget(
            name: "ReadingList",
            dependencies: [.product(name: "DataStore", package: "DataModelKit")],
            exclude: ["Models"],
            plugins: [.plugin(name: "DataModelGenerator", package: "DataModelKit")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
