/// Whether a store records persistent history: each save as a transaction with its changes, in
/// Core Data's tables (`ATRANSACTION`, `ACHANGE`, `ATRANSACTIONSTRING`), which Core Data reads too.
public enum HistoryTracking: Sendable, Equatable {
    /// Records history when the store already has it (written here or by Core Data with
    /// `NSPersistentHistoryTrackingKey`), so that no other reader finds a gap; a new store has none.
    case automatic
    /// Records history, adding the tables to a store that has none.
    case enabled
    /// Stops recording and deletes the store's history. Readers holding tokens of it get
    /// `HistoryError.notTracked` from then on, never a silently incomplete history.
    case disabledDeletingHistory
}
