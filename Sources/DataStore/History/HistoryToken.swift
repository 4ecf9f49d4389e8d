/// A place in a store's history: the transaction it names and every one before it. Fetch the
/// history after a token to learn what changed since; tokens are values, saved as `Codable` data
/// between launches (Core Data's `NSPersistentHistoryToken`).
public struct HistoryToken: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The store's `Z_METADATA.Z_UUID`: a token means nothing for another store.
    public let storeIdentifier: String
    /// The transaction's number (`ATRANSACTION.Z_PK`), increasing from one save to the next.
    public let transactionNumber: Int64

    public init(storeIdentifier: String, transactionNumber: Int64) {
        self.storeIdentifier = storeIdentifier
        self.transactionNumber = transactionNumber
    }

    public static func < (lhs: HistoryToken, rhs: HistoryToken) -> Bool {
        lhs.transactionNumber < rhs.transactionNumber
    }

    public var description: String { "\(storeIdentifier)/\(transactionNumber)" }
}
