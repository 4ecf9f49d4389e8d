import ArgumentParser
import GeneratorCommand
import PostgreSQLStore

extension StoreLocation {
    /// The store a command's argument names: a file, or a `postgresql://` URL. An argument that
    /// names neither is said on standard error, and the command fails.
    init(argument: String) throws(ExitCode) {
        do {
            try self.init(argument)
        } catch {
            StandardError.write("error: \(error)")
            throw ExitCode.failure
        }
    }
}
