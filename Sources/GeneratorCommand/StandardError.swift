import DataModel
import Foundation

/// Diagnostics go to standard error, so standard output carries only the command's product.
package enum StandardError {
    package static func print(_ diagnostic: Diagnostic) {
        write(diagnostic.description)
    }

    package static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// `2 errors, 1 warning`, or nil when there is nothing to count.
    package static func summary(of diagnostics: [Diagnostic]) -> String? {
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        guard errors + warnings > 0 else { return nil }
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        return [count(errors, "error"), count(warnings, "warning")].joined(separator: ", ")
    }
}
