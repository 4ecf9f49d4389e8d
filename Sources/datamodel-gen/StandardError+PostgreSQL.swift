import GeneratorCommand
import PostgresNIO

extension StandardError {
    /// What an error says: for PostgreSQL's, the server's message, which PostgresNIO leaves out
    /// of `description`.
    static func message(for error: any Error) -> String {
        error is PSQLError ? String(reflecting: error) : "\(error)"
    }
}
