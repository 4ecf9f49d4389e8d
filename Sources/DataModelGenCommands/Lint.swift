import ArgumentParser
import DataModel
import GeneratorCommand
import SwiftGenerator

/// `datamodel-gen lint MODEL`: every problem in the model, compiler-style.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Checks a model and prints every problem found.",
        discussion: """
            Prints diagnostics to standard error as 'path:line:column: error|warning: message' and exits \
            with 1 when there is an error (or, with --warnings-as-errors, a warning), 0 otherwise.

            Errors are problems that make the model unusable: unknown entities, inverses that do not \
            point back, inheritance cycles, duplicate names, indexes naming unknown properties, \
            impossible counts, malformed values, fetch requests and fetched properties whose \
            predicates cannot be read. Warnings point at things that work but probably \
            should not be so: relationships without an inverse, required attributes without a \
            default, abstract entities without subentities, names generated code must escape, \
            XML this tool does not know (it is kept, never dropped).

            Examples:
              datamodel-gen lint Models/FailedBanks.xcdatamodeld
              datamodel-gen lint App/Model.xcdatamodeld --model-version "Model 3" --warnings-as-errors
            """
    )

    @OptionGroup var options: ModelOptions

    @Flag(help: "Treat warnings as errors: report them as errors and fail when there is any.")
    var warningsAsErrors = false

    func run() throws {
        let loaded = try options.load()
        var diagnostics = (loaded.diagnostics + ModelPredicates.diagnostics(of: loaded.model)).sortedByLocation()
        if warningsAsErrors {
            diagnostics = diagnostics.map { diagnostic in
                var promoted = diagnostic
                if promoted.severity == .warning { promoted.severity = .error }
                return promoted
            }
        }
        diagnostics.forEach(StandardError.print)
        if let summary = StandardError.summary(of: diagnostics) { StandardError.write(summary) }
        if diagnostics.containsErrors { throw ExitCode.failure }
    }
}
