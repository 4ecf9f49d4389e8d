// swift-tools-version: 6.1
import PackageDescription

// A news reader's persistence layer, set up as Core Data apps set theirs up: a container, a view
// context whose list follows background imports, upserts of a JSON feed into constrained
// entities, lifecycle hooks and a custom accessor. `swift build` generates the model's classes.
let package = Package(
    name: "NewsFeed",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "DataModelKit", path: "../..")],
    targets: [
        .executableTarget(
            name: "NewsFeed",
            dependencies: [.product(name: "DataStore", package: "DataModelKit")],
            exclude: ["Models"],
            plugins: [.plugin(name: "DataModelGenerator", package: "DataModelKit")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
