import ArgumentParser
import DataModel
import DataStore
import Foundation
import GeneratorCommand

/// What `datamodel-gen` does with stores on a database server, given by the module that speaks
/// to one (`PostgreSQLCommands`) when the tool is built with it (the package trait `PostgreSQL`):
/// the store commands take a server's URL wherever they take a file, and the server's own
/// commands join the tool's.
package protocol ServerStoreCommands: Sendable {
    /// The commands that exist only with a server (`copy-store`).
    var commands: [any ParsableCommand.Type] { get }

    /// The server's URL as messages show it: without its password. Throws for a URL that cannot
    /// be used, saying why.
    func displayName(of url: String) throws -> String

    /// Copies the store at `url` in one snapshot into the new SQLite file `file`, which the
    /// commands then read as they read any store file.
    func snapshot(of url: String, model: Model, into file: URL) async throws

    /// The plan that carries the store at `url` to `version` (the current one when nil), or nil
    /// when it is there already.
    func migrationPlan(of url: String, model: ManagedObjectModel, to version: String?) async throws -> MigrationPlan?

    /// Carries the store at `url` to `version`.
    func migrate(_ url: String, model: ManagedObjectModel, to version: String?, options: MigrationOptions) async throws

    /// What `error` says, with what the server's client leaves out of its description.
    func message(for error: any Error) -> String
}

/// The server support installed in this build of the tool, if any.
package enum ServerStores {
    /// Set once, by the tool's entry point, before any command is parsed.
    nonisolated(unsafe) private static var installed: (any ServerStoreCommands)?

    package static func install(_ support: any ServerStoreCommands) {
        installed = support
    }

    static var current: (any ServerStoreCommands)? { installed }
}

/// A store a command's argument names: a file, or a database server's URL.
enum StoreArgument {
    case file(URL)
    /// A `postgresql://` (or `postgres://`) URL, and the server support that reads it.
    case server(String, any ServerStoreCommands)

    /// The store `argument` names; a URL this build cannot read is said on standard error, and the
    /// command fails.
    init(_ argument: String) throws(ExitCode) {
        guard argument.hasPrefix("postgresql:") || argument.hasPrefix("postgres:") else {
            self = .file(URL(fileURLWithPath: argument))
            return
        }
        guard let server = ServerStores.current else {
            StandardError.write("""
                error: this datamodel-gen reads store files only; build it with PostgreSQL for \
                '\(argument.prefix { $0 != ":" })://' stores: swift build --traits PostgreSQL
                """)
            throw ExitCode.failure
        }
        do {
            _ = try server.displayName(of: argument)
        } catch {
            StandardError.write("error: \(error)")
            throw ExitCode.failure
        }
        self = .server(argument, server)
    }

    /// The store as messages name it: a file as typed, a URL without its password.
    func displayName(typed argument: String) -> String {
        switch self {
        case .file: argument
        case .server(let url, let server): (try? server.displayName(of: url)) ?? url
        }
    }
}
