import ArgumentParser
import DataModel
import DataModelParser
import DataStore
import Foundation
import GeneratorCommand

/// `datamodel-gen extract-model STORE -o Name.xcdatamodel`: the model a store carries, as Xcode's
/// XML.
struct ExtractModel: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract-model",
        abstract: "Writes the model a store carries as an .xcdatamodel that Xcode and this tool read.",
        discussion: """
            Core Data (since 2011) and SwiftData keep the model that wrote a store inside it. This \
            reads that model, checks it against the version hashes in the store's metadata, and \
            writes it as OUTPUT/contents, which 'lint', 'generate' and Xcode read like any model: \
            the way to a model, and generated classes, for a store whose app is not at hand or \
            whose model exists only in SwiftData's @Model classes.

            Examples:
              datamodel-gen extract-model Customer.sqlite -o Customer.xcdatamodel
              datamodel-gen extract-model default.store -o Recovered.xcdatamodel && datamodel-gen generate Recovered.xcdatamodel -o Generated
            """
    )

    @Argument(help: "The store file (.sqlite, SwiftData's default.store).")
    var store: String

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The .xcdatamodel folder to write.", valueName: "folder"))
    var output: String

    func run() throws {
        var model: Model
        do {
            model = try CarriedModel.of(URL(fileURLWithPath: store))
        } catch {
            StandardError.write("\(store): error: \(error)")
            throw ExitCode.failure
        }
        model.header.type = "com.apple.IDECoreDataModeler.DataModel"
        model.header.documentVersion = "1.0"
        model.header.minimumToolsVersion = "Automatic"
        model.header.sourceLanguage = "Swift"
        let contents: String
        do {
            contents = try ModelWriter.contents(of: model)
        } catch {
            StandardError.write("\(store): error: the store's model cannot be written as XML: \(error)")
            throw ExitCode.failure
        }
        let folder = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try contents.write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        print("\(output): \(model.entities.count) entities from \(store)")
    }
}
