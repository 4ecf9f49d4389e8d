/// Why a store's history could not be read or deleted.
public enum HistoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store records no history (open it with `history: .enabled`).
    case notTracked
    /// The transactions after the token were deleted, at least in part: the history since then is
    /// incomplete, so read the objects themselves again (Core Data's error 134301,
    /// `NSPersistentHistoryTokenExpiredError`).
    case expired(HistoryToken)
    /// The token belongs to another store.
    case tokenOfAnotherStore(HistoryToken)
    /// A predicate on changes names a key a change does not have, or compares what it cannot.
    case invalidPredicate(String)

    public var description: String {
        switch self {
        case .notTracked: "the store does not record persistent history"
        case .expired(let token): "history after \(token) was deleted; the token has expired"
        case .tokenOfAnotherStore(let token): "the history token \(token) belongs to another store"
        case .invalidPredicate(let reason): "invalid predicate on history changes: \(reason)"
        }
    }
}
