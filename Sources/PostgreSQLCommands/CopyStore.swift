import ArgumentParser
import DataModel
import DataStore
import Foundation
import GeneratorCommand
import PostgreSQLStore

/// `datamodel-gen copy-store SOURCE DESTINATION --model MODEL`: copies a store into a new one,
/// SQLite or PostgreSQL.
struct CopyStore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy-store",
        abstract: "Copies every object of a store into a new SQLite file or PostgreSQL database.",
        discussion: """
            SOURCE and DESTINATION are each a SQLite file or a PostgreSQL database given as a URL: \
            postgresql://user:password@host:port/database?sslmode=disable|prefer|require. The copy \
            keeps every row as it is — primary keys, relationships and their order, Z_PRIMARYKEY, \
            and Z_METADATA with the store's UUID, so object IDs stay the same — and writes \
            PostgreSQL's types for Core Data's layout (datamodel-gen sql --dialect postgresql). \
            Without --model, a SOURCE file is read with the model it carries (Core Data's since \
            2011, SwiftData's).

            Persistent history (ATRANSACTION, ACHANGE) goes too, deleted objects' preserved values \
            included, and so do the tables a SQLite store has outside the model's layout, such as \
            Core Data's CloudKit mirroring metadata (ANSCK…): PostgreSQL keeps their values with \
            SQLite's storage class and their SQLite definition as the table's comment, so a copy \
            back creates them as they were.

            The source is read in one snapshot and the destination written in one transaction: a \
            copy that stops leaves nothing behind. DESTINATION must be a file that does not exist, \
            or a database (its current schema) without a store. The copy refuses a source written \
            by another model version, a table or column of the layout that differs from the \
            model's, a PostgreSQL table of other origin that holds rows (it would be lost), and any \
            value the destination cannot hold as it is, naming its table, column and row. Progress \
            goes to standard error.

            Examples:
              datamodel-gen copy-store App.sqlite postgresql://app@db.example.com/app --model Model.xcdatamodeld
              datamodel-gen copy-store Customer.sqlite postgresql://app@127.0.0.1/support
              datamodel-gen copy-store postgresql://app@127.0.0.1:5432/app Copy.sqlite --model Model.xcdatamodeld
            """
    )

    @Argument(help: "The store to read: a .sqlite file or a postgresql:// URL.")
    var source: String

    @Argument(help: "The new store to write: a .sqlite file that does not exist, or a postgresql:// URL.")
    var destination: String

    @Option(help: ArgumentHelp(
        "The model (.xcdatamodeld, .xcdatamodel) whose version wrote SOURCE (default: the model a SOURCE file carries).", valueName: "model"))
    var model: String?

    @Option(name: .customLong("model-version"), help: ArgumentHelp("The version of the bundle that wrote SOURCE, if not its current one.", valueName: "name"))
    var modelVersion: String?

    func run() async throws {
        let source = try StoreLocation(argument: self.source)
        let destination = try StoreLocation(argument: self.destination)
        let writingModel: Model
        if let model {
            writingModel = try ModelOptions.load(model, version: modelVersion).model
        } else {
            guard case .sqlite(let url) = source else { throw ValidationError("a server's store is copied with the model named by --model") }
            do {
                writingModel = try PersistentStore.modelForStore(at: url)
            } catch {
                StandardError.write("\(self.source): error: \(error)")
                throw ExitCode.failure
            }
        }
        do {
            var reported = Date.distantPast
            let copied = try await StoreCopier(model: writingModel).copy(from: source, to: destination) { progress in
                // At most a few lines a second, and the last one.
                guard progress.copiedRows == progress.totalRows || Date().timeIntervalSince(reported) > 0.5 else { return }
                reported = Date()
                StandardError.write("copied \(progress.copiedRows) of \(progress.totalRows) rows (\(progress.table))")
            }
            print("Copied \(copied) rows from \(source) to \(destination).")
        } catch {
            StandardError.write("error: \(PostgreSQLStoreCommands().message(for: error))")
            throw ExitCode.failure
        }
    }
}
