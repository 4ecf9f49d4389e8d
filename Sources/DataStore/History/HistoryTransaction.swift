import Foundation
import StoreSchema

/// One save as the store's history recorded it (Core Data's `NSPersistentHistoryTransaction`).
public struct HistoryTransaction: Sendable, Equatable {
    /// The place in history just after this transaction: fetch after it for what came next.
    public var token: HistoryToken
    public var timestamp: Date
    /// The saving context's `transactionAuthor`.
    public var author: String?
    /// The saving context's `name`.
    public var contextName: String?
    public var bundleID: String?
    /// The saving process's name.
    public var processID: String?
    /// The changed objects, in the order they were recorded (only those a request's filters keep).
    public var changes: [HistoryChange]

    public var transactionNumber: Int64 { token.transactionNumber }

    /// The transaction as a change set, for `ObjectContext.mergeChanges(from:)` and for observers.
    public var changeSet: ChangeSet {
        var set = ChangeSet()
        var inserted: Set<ObjectID> = []
        for change in changes {
            switch change.changeType {
            case .insert: inserted.insert(change.changedObjectID)
            case .update: set.updated[change.changedObjectID, default: []].formUnion(change.updatedProperties ?? [])
            case .delete: set.deleted.insert(change.changedObjectID)
            }
        }
        set.inserted = inserted
        return set
    }
}

/// One object's change in a transaction (Core Data's `NSPersistentHistoryChange`).
public struct HistoryChange: Sendable, Equatable {
    public typealias ChangeType = HistorySchema.ChangeType

    /// `ACHANGE.Z_PK`.
    public var changeID: Int64
    public var changeType: ChangeType
    public var changedObjectID: ObjectID
    /// For an update, the properties whose values changed; `nil` for inserts and deletes.
    public var updatedProperties: Set<String>?
    /// For a delete, the values of the entity's attributes marked "Preserve After Deletion"
    /// (`preserveAfterDeletion`) as the store held them, by name, those without a value left out;
    /// `nil` for inserts, updates, and entities that preserve none.
    public var tombstone: [String: AttributeValue]?

    public init(
        changeID: Int64, changeType: ChangeType, changedObjectID: ObjectID, updatedProperties: Set<String>? = nil,
        tombstone: [String: AttributeValue]? = nil
    ) {
        self.changeID = changeID
        self.changeType = changeType
        self.changedObjectID = changedObjectID
        self.updatedProperties = updatedProperties
        self.tombstone = tombstone
    }
}
