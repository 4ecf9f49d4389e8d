/// Why a save failed. Nothing was written — but for `commitOutcomeUnknown` — so the store and the
/// context are as before the call, and the changes can be fixed and saved again.
public enum SaveError: Error, Equatable, CustomStringConvertible {
    /// Objects broke the model's rules; every failure found is listed.
    case validation([ValidationFailure])
    /// Objects changed in the store since this context read them (their `Z_OPT` moved on), or were
    /// deleted there. Nothing is overwritten; refresh the objects and decide.
    case conflicts([Conflict])
    case database(message: String)
    /// The context's asynchronous save has not ended: a synchronous save cannot wait for it.
    /// Await that save first, or save with `try await context.save()`, which waits.
    case saveInProgress
    /// The connection to the server ended while the save committed: the server may hold the save
    /// or not, and no one can tell which from here. The context keeps the changes; fetch the
    /// objects again before saving them once more, since saving them blindly may insert twice.
    case commitOutcomeUnknown(message: String)
    /// A `CustomMergePolicy` threw while settling the save's conflicts; its error, described.
    case mergePolicyFailed(message: String)

    /// An object whose row changed underneath the context — or, for a child context's save, that
    /// the parent context changed or deleted since the child read it.
    public struct Conflict: Equatable, Sendable, CustomStringConvertible {
        public let objectID: ObjectID
        /// The `Z_OPT` the context read.
        public let expectedVersion: Int64
        /// The `Z_OPT` in the store now (in the parent, for a parent's conflict), `nil` when the
        /// row is gone.
        public let storeVersion: Int64?
        /// Where the object changed.
        public let origin: Origin

        public enum Origin: Equatable, Sendable {
            case store
            /// The parent context of a child that saved; `changedProperties` names the properties
            /// whose values there differ from those the child read (none when it was deleted).
            case parentContext(changedProperties: [String])
        }

        public init(objectID: ObjectID, expectedVersion: Int64, storeVersion: Int64?, origin: Origin = .store) {
            self.objectID = objectID
            self.expectedVersion = expectedVersion
            self.storeVersion = storeVersion
            self.origin = origin
        }

        public var description: String {
            switch origin {
            case .store:
                storeVersion.map { "\(objectID) changed in the store (version \(expectedVersion) → \($0))" }
                    ?? "\(objectID) was deleted from the store"
            case .parentContext(let properties):
                storeVersion == nil
                    ? "\(objectID) was deleted in the parent context"
                    : "\(objectID) changed in the parent context (\(properties.joined(separator: ", ")))"
            }
        }
    }

    public var description: String {
        switch self {
        case .validation(let failures):
            "validation failed:\n" + failures.map { "  \($0)" }.joined(separator: "\n")
        case .conflicts(let conflicts):
            "optimistic locking failed:\n" + conflicts.map { "  \($0)" }.joined(separator: "\n")
        case .database(let message): "database error: \(message)"
        case .saveInProgress: "the context's asynchronous save has not ended; await it, or save with 'try await save()'"
        case .commitOutcomeUnknown(let message): "the save may or may not have been written: \(message)"
        case .mergePolicyFailed(let message): "the merge policy did not settle the conflicts: \(message)"
        }
    }
}
