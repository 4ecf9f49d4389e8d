/// Why a batch request failed. Nothing was written — but for `commitOutcomeUnknown` — so the store
/// is as before the call.
public enum BatchError: Error, Equatable, CustomStringConvertible {
    /// The request names an entity, property or key path the model lacks, gives a value an
    /// attribute cannot hold, or has a predicate or expression the store cannot run.
    case invalidRequest(ContextError)
    /// Objects would break the model's rules; every failure found is listed. An object of a batch
    /// insert is named by its position in the request (``BatchInsertFailure``); others by their ID.
    case validation([ValidationFailure])
    /// Objects of a batch insert would break the model's rules.
    case invalidInsertedObjects([BatchInsertFailure])
    case database(message: String)
    /// The connection to a server ended while the request's transaction committed: it may have
    /// been written or not, and no one can tell which from here. Fetch before running it again,
    /// since a batch insert run twice inserts twice.
    case commitOutcomeUnknown(message: String)

    public var description: String {
        switch self {
        case .invalidRequest(let error): "invalid batch request: \(error)"
        case .validation(let failures):
            "validation failed:\n" + failures.map { "  \($0)" }.joined(separator: "\n")
        case .invalidInsertedObjects(let failures):
            "validation failed:\n" + failures.map { "  \($0)" }.joined(separator: "\n")
        case .database(let message): "database error: \(message)"
        case .commitOutcomeUnknown(let message): "the batch request may or may not have been written: \(message)"
        }
    }
}

/// A rule of the model that the object at `index` of a batch insert breaks. The failure's object
/// ID is a temporary one, the same for every object of the request: `index` tells them apart.
public struct BatchInsertFailure: Equatable, Sendable, CustomStringConvertible {
    public let index: Int
    public let failure: ValidationFailure

    public var description: String { "object \(index): \(failure)" }
}
