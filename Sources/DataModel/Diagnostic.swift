/// A problem found in a model, with where it is and how bad it is.
///
/// Diagnostics are values: the parser and the validator collect them and never print.
/// `description` renders them the way compilers do, so build logs and editors link to the model file:
///
///     Models/Shop.xcdatamodel/contents:42:7: error: relationship 'owner' of entity 'Car' has unknown destination entity 'Persn'
public struct Diagnostic: Sendable, Hashable {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable, Encodable, Comparable {
        /// Information attached to another diagnostic.
        case note
        /// Something suspicious that does not stop generation.
        case warning
        /// Something that makes the model unusable; nothing is generated.
        case error

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    public var severity: Severity
    public var message: String
    public var location: SourceLocation

    public init(_ severity: Severity, _ message: String, at location: SourceLocation) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    public static func error(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.error, message, at: location)
    }

    public static func warning(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.warning, message, at: location)
    }

    public static func note(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.note, message, at: location)
    }

    public var isError: Bool { severity == .error }
}

extension Diagnostic: CustomStringConvertible {
    /// `path:line:column: severity: message`.
    public var description: String { "\(location): \(severity.rawValue): \(message)" }
}

extension Sequence where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var containsErrors: Bool { contains { $0.isError } }

    /// The diagnostics in file order (stable for equal locations), the order a reader fixes them in.
    public func sortedByLocation() -> [Diagnostic] {
        enumerated()
            .sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }
            .map(\.element)
    }
}
