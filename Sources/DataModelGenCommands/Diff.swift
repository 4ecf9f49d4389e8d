import ArgumentParser
import DataModel
import Foundation
import GeneratorCommand
import StoreMigration

/// `datamodel-gen diff OLD NEW`: what changed between two model versions, and what a migration infers.
struct Diff: ParsableCommand {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text
        case json
    }

    static let configuration = CommandConfiguration(
        abstract: "Prints the changes between two model versions and whether a lightweight migration infers them.",
        discussion: """
            Entities and properties are matched as Core Data matches them: by renaming identifier \
            (the model editor's "Renaming ID", elementID), else by name. Each change is inferred, \
            inferred if the store's data allows it (a value that becomes required without a \
            default), or not inferred: those are printed compiler-style with their model location, \
            and the command exits with status 1.

            OLD and NEW are models (an .xcdatamodeld, .xcdatamodel or 'contents'); for two versions \
            of one bundle, name it twice and choose the versions.

            Examples:
              datamodel-gen diff Models/Everything.xcdatamodeld Models/Everything.xcdatamodeld --old-version "Everything 1"
              datamodel-gen diff Old.xcdatamodel New.xcdatamodel --format json
            """
    )

    @Argument(help: "The model the store was written with.")
    var old: String

    @Argument(help: "The model to migrate to.")
    var new: String

    @Option(name: .customLong("old-version"), help: ArgumentHelp("The version of OLD, when it is an .xcdatamodeld.", valueName: "name"))
    var oldVersion: String?

    @Option(name: .customLong("new-version"), help: ArgumentHelp("The version of NEW, when it is an .xcdatamodeld.", valueName: "name"))
    var newVersion: String?

    @Option(help: "text (changes, blocking ones compiler-style) or json.")
    var format: Format = .text

    func run() throws {
        let source = try ModelOptions.load(old, version: oldVersion).model
        let destination = try ModelOptions.load(new, version: newVersion).model
        let difference = ModelDifference(from: source, to: destination)
        let from = source.versionName ?? old
        let to = destination.versionName ?? new
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let report = Report(from: from, to: to, inferable: difference.isInferable, changes: difference.changes)
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        case .text:
            print("\(from) → \(to): \(Self.count(difference.changes.count, "change"))"
                + (difference.isInferable ? ", all inferable" : ", \(Self.count(difference.blockingChanges.count, "change")) not inferable"))
            for change in difference.changes where !change.inference.isBlocking { print("  \(change)") }
            for change in difference.blockingChanges { print("\(change.location): error: \(change)") }
        }
        if !difference.isInferable { throw ExitCode.failure }
    }

    private struct Report: Encodable {
        var from: String
        var to: String
        var inferable: Bool
        var changes: [ModelChange]
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
