// swift-tools-version: 6.1
// Fuzz targets, built with libFuzzer instrumentation. See README.md beside this file.
import PackageDescription

let package = Package(
    name: "DataModelKitFuzz",
    dependencies: [.package(name: "DataModelKit", path: "..")],
    targets: [
        .executableTarget(
            name: "ParserFuzzer",
            dependencies: [
                .product(name: "DataModel", package: "DataModelKit"),
                .product(name: "DataModelParser", package: "DataModelKit"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
