// check-stencil-port [MODEL ...]: renders each model with the generator and with the Stencil port,
// in the entity-files and incremental layouts and without observation, and fails on the first file that differs.
// Without arguments: the package's sample models.
import DataModelParser
import Foundation
import StencilPort
import SwiftGenerator

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
let arguments = Array(CommandLine.arguments.dropFirst())
let models = arguments.isEmpty
    ? try FileManager.default.contentsOfDirectory(atPath: root.appending(path: "Models").path)
        .filter { $0.hasSuffix(".xcdatamodeld") }.sorted().map { root.appending(path: "Models/\($0)").path }
        + [root.appending(path: "Tests/SwiftGeneratorTests/Fixtures/HostileNames.xcdatamodel").path]
    : arguments

let port = StencilPort()
var failures = 0
for path in models {
    let loaded = try ModelLoader().loadVersions(path)
    let versions = loaded.versions.map(\.model)
    let current = versions[loaded.current]
    let variants = [
        ("entity-files", GeneratorOptions()), ("incremental", GeneratorOptions(layout: .incremental)),
        ("no-observation", GeneratorOptions(isObservable: false)),
    ]
    for (variant, options) in variants {
        let generator = try SwiftGenerator(options: options)
        let ours = generator.generate(current, versions: versions).files
        let context = try StencilPort.objects(generator.context(for: current, versions: versions).context)
        let modelFileName = options.layout == .incremental ? "\(SwiftGenerator.modelName(of: current)).swift" : nil
        let theirs = try port.files(for: context, modelFileName: modelFileName)
        let name = "\(URL(fileURLWithPath: path).lastPathComponent) (\(variant))"
        if let (file, other) = zip(ours, theirs).first(where: { $0 != $1 }) {
            let lines = (file.contents.split(separator: "\n", omittingEmptySubsequences: false),
                         other.contents.split(separator: "\n", omittingEmptySubsequences: false))
            let line = zip(lines.0, lines.1).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(lines.0.count, lines.1.count)
            print("\(name): \(file.name) differs at line \(line + 1):")
            print("  generator: \(line < lines.0.count ? lines.0[line] : "(end)")")
            print("  Stencil:   \(line < lines.1.count ? lines.1[line] : "(end)")")
            failures += 1
        } else if ours.map(\.name) != theirs.map(\.name) {
            print("\(name): the generator writes \(ours.map(\.name)), the port \(theirs.map(\.name))")
            failures += 1
        } else {
            print("\(name): \(ours.count) files equal")
        }
    }
}
exit(failures == 0 ? 0 : 1)
