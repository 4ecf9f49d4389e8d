/// What a batch request did, in place of Core Data's result types: `count` for
/// `.count`/`.resultTypeCount`, `objectIDs` for `.objectIDs`/`.resultTypeObjectIDs`, and success —
/// `.statusOnly`'s `true` — is returning at all (a failed request throws).
public struct BatchResult: Sendable, Equatable {
    /// The IDs of the objects inserted, updated or deleted (a delete's include those its Cascade
    /// rules deleted), in store order.
    public let objectIDs: [ObjectID]

    /// The number of objects inserted, updated or deleted.
    public var count: Int { objectIDs.count }
}
