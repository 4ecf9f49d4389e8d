import ArgumentParser
import DataModel
import DataStore
import Foundation
import GeneratorCommand

/// `datamodel-gen dump MODEL`: the parsed model as JSON (for tools and template authors) or a summary.
struct Dump: ParsableCommand {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json
        case summary
    }

    static let configuration = CommandConfiguration(
        abstract: "Prints the parsed model as JSON or as a readable summary.",
        discussion: """
            The JSON form is stable: keys are sorted, arrays keep the model's order, and absent \
            values are left out. Its top level has 'entities', 'composites', 'fetchRequestTemplates', \
            'configurations' and 'header'; each entity has 'name' and its own 'attributes', \
            'relationships' and 'fetchedProperties' (inherited ones are not repeated; follow \
            'parentName'). Every element carries its 'location' (line, column) in the model file.

            A model with errors prints nothing on standard output, only the diagnostics, and exits with 1.

            MODEL may also be a store file: the model it carries (Core Data's since 2011, \
            SwiftData's) is printed, without locations.

            Examples:
              datamodel-gen dump Models/Books.xcdatamodeld --format json > books.json
              datamodel-gen dump Models/Products.xcdatamodeld --format summary
              datamodel-gen dump Customer.sqlite --format summary
            """
    )

    @OptionGroup var options: ModelOptions

    @Option(help: "Output format: 'json' (stable, for tools) or 'summary' (for people).")
    var format: Format = .json

    func run() throws {
        let loaded = try options.load()
        loaded.diagnostics.forEach(StandardError.print)
        if loaded.diagnostics.containsErrors { throw ExitCode.failure }
        let model = loaded.model
        switch format {
        case .json: print(try ModelJSON.string(from: model))
        case .summary: print(ModelSummary.text(of: model), terminator: "")
        }
    }
}
