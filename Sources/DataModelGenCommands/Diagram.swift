import ArgumentParser
import DataModel
import GeneratorCommand

/// `datamodel-gen diagram MODEL`: a picture of the model, as Xcode's graph view drew it.
struct Diagram: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draws a model: entities, attributes, relationships with cardinality and inverses, inheritance.",
        discussion: """
            Xcode's graph view of a model, which Xcode 14 removed, as text for a README, a docs page \
            or a review. Each entity is a box with its own attributes (optional ones end in ?, \
            abstract entities are marked); a subentity points to its parent with an open arrow; \
            each relationship is one line with its inverse, labelled 'name / inverse', with the \
            multiplicity at each end (0..1, 1, *, 1..*, 2..5). A relationship without an inverse is \
            an arrow from its entity.

            --format mermaid (the default) writes a Mermaid classDiagram: paste it into a ```mermaid \
            block of any Markdown GitHub renders. --format dot writes Graphviz DOT, which also draws \
            Xcode's arrowheads (one for to-one, two for to-many): render it with 'dot -Tsvg'.

            A model with errors prints nothing and exits with 1.

            Examples:
              datamodel-gen diagram Models/Books.xcdatamodeld
              datamodel-gen diagram Models/Everything.xcdatamodeld --format dot | dot -Tsvg > Everything.svg
              datamodel-gen diagram App/Model.xcdatamodeld --model-version "Model 2" --output docs/model.mmd
            """
    )

    @OptionGroup var options: ModelOptions

    @Option(help: ArgumentHelp("The diagram's language.", valueName: "format"))
    var format: ModelDiagram.Format = .mermaid

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the diagram to this file instead of standard output.", valueName: "file"))
    var output: String?

    func run() throws {
        let loaded = try options.load()
        loaded.diagnostics.forEach(StandardError.print)
        if loaded.diagnostics.containsErrors { throw ExitCode.failure }
        try CommandOutput.emit(ModelDiagram.text(of: loaded.model, format: format), to: output, what: "diagram")
    }
}

extension ModelDiagram.Format: ExpressibleByArgument {}
