import DataModel

/// Why a model could not be read at all: the file is missing, is not XML, is not a model, or the
/// bundle does not say which version to use. Problems *inside* a readable model are diagnostics instead.
public struct ModelLoadingError: Error, Sendable, Equatable {
    /// The kind of failure, for callers that react differently to each.
    public enum Reason: Sendable, Equatable {
        /// Nothing exists at the path.
        case notFound
        /// The file exists but cannot be read, or is too large.
        case unreadable
        /// The XML is not well-formed (or the file is empty or binary).
        case malformedXML
        /// Well-formed, but not a Core Data model (wrong root element, a folder without `contents`).
        case notAModel
        /// A pre-Xcode 4 model: binary `elements`/`layout` files instead of `contents`.
        case legacyBinaryFormat
        /// A bundle with several versions and none marked current.
        case ambiguousVersion
        /// The requested (or marked) version is not in the bundle.
        case unknownVersion
    }

    public var reason: Reason
    /// The located message, ready to print.
    public var diagnostic: Diagnostic

    public init(_ reason: Reason, _ message: String, at location: SourceLocation) {
        self.reason = reason
        diagnostic = .error(message, at: location)
    }
}

extension ModelLoadingError: CustomStringConvertible {
    public var description: String { diagnostic.description }
}
