import DataModel
import Foundation
import PostgresNIO

/// Diagnostics go to standard error, so standard output carries only the command's product.
enum StandardError {
    static func print(_ diagnostic: Diagnostic) {
        write(diagnostic.description)
    }

    static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// What an error says: for PostgreSQL's, the server's message, which PostgresNIO leaves out
    /// of `description`.
    static func message(for error: any Error) -> String {
        error is PSQLError ? String(reflecting: error) : "\(error)"
    }

    /// `2 errors, 1 warning`, or nil when there is nothing to count.
    static func summary(of diagnostics: [Diagnostic]) -> String? {
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        guard errors + warnings > 0 else { return nil }
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        return [count(errors, "error"), count(warnings, "warning")].joined(separator: ", ")
    }
}
