/// Deletes every object a fetch request matches, or the objects with the given IDs, as SQL in one
/// transaction, without loading objects: Core Data's `NSBatchDeleteRequest`.
///
/// Relationships follow the model's delete rules, as Core Data's batch deletes do: Cascade deletes
/// the destinations too, Nullify clears the inverse of the objects that remain, and the request
/// fails — writing nothing — when a Deny relationship still has destinations or when an object
/// that remains would lose a required to-one.
///
///     let request = BatchDeleteRequest(FetchRequest<Book>(predicate: try ObjectPredicate(format: "price == 0")))
///     let result = try context.execute(request)   // result.count, result.objectIDs
public struct BatchDeleteRequest: Sendable {
    enum Target: Sendable {
        case matching(entityName: String, predicate: ObjectPredicate?, sortDescriptors: [ObjectSortDescriptor],
                      fetchLimit: Int, fetchOffset: Int, includesSubentities: Bool)
        case objectIDs([ObjectID])
    }

    let target: Target

    /// Deletes the objects `fetchRequest` matches — its predicate, and its limit and offset in its
    /// order when it has them.
    public init<Object: ManagedObject>(_ fetchRequest: FetchRequest<Object>) {
        target = .matching(
            entityName: fetchRequest.entityName, predicate: fetchRequest.predicate, sortDescriptors: fetchRequest.sortDescriptors,
            fetchLimit: fetchRequest.fetchLimit, fetchOffset: fetchRequest.fetchOffset, includesSubentities: fetchRequest.includesSubentities)
    }

    /// Deletes the objects with these IDs (permanent IDs of this store; IDs of rows already gone
    /// are skipped).
    public init(objectIDs: [ObjectID]) {
        target = .objectIDs(objectIDs)
    }
}
