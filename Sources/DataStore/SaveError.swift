/// Why a save failed. Nothing was written: the store and the context are as before the call, so
/// the changes can be fixed and saved again.
public enum SaveError: Error, Equatable, CustomStringConvertible {
    /// Objects broke the model's rules; every failure found is listed.
    case validation([ValidationFailure])
    /// Objects changed in the store since this context read them (their `Z_OPT` moved on), or were
    /// deleted there. Nothing is overwritten; refresh the objects and decide.
    case conflicts([Conflict])
    case database(message: String)

    /// An object whose row changed underneath the context.
    public struct Conflict: Equatable, Sendable, CustomStringConvertible {
        public let objectID: ObjectID
        /// The `Z_OPT` the context read.
        public let expectedVersion: Int64
        /// The `Z_OPT` in the store now, `nil` when the row is gone.
        public let storeVersion: Int64?

        public init(objectID: ObjectID, expectedVersion: Int64, storeVersion: Int64?) {
            self.objectID = objectID
            self.expectedVersion = expectedVersion
            self.storeVersion = storeVersion
        }

        public var description: String {
            storeVersion.map { "\(objectID) changed in the store (version \(expectedVersion) → \($0))" }
                ?? "\(objectID) was deleted from the store"
        }
    }

    public var description: String {
        switch self {
        case .validation(let failures):
            "validation failed:\n" + failures.map { "  \($0)" }.joined(separator: "\n")
        case .conflicts(let conflicts):
            "optimistic locking failed:\n" + conflicts.map { "  \($0)" }.joined(separator: "\n")
        case .database(let message): "database error: \(message)"
        }
    }
}
