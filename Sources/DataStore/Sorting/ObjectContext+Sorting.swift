/// Sorting objects in memory exactly as a fetch with the same sort descriptors orders rows.
extension ObjectContext {
    /// `objects` in the order of `descriptors`, then saved objects by key before unsaved ones.
    public func sorted<T: ManagedObject>(_ objects: [T], by descriptors: [ObjectSortDescriptor]) throws(ContextError) -> [T] {
        var keysByEntity: [String: [FetchPlan.SortKey]] = [:]
        var keyed: [(object: T, keys: [FetchPlan.SortKey])] = []
        for object in objects {
            if keysByEntity[object.entity.name] == nil {
                let resolver = PredicateResolver(store: store, entity: object.entity)
                var keys: [FetchPlan.SortKey] = []
                for descriptor in descriptors {
                    let (path, attribute) = try resolver.attributePath(descriptor.keyPath)
                    keys.append(FetchPlan.SortKey(path: path, attribute: attribute, descriptor: descriptor))
                }
                keysByEntity[object.entity.name] = keys
            }
            keyed.append((object, keysByEntity[object.entity.name] ?? []))
        }
        return sortedInMemory(keyed.map { ($0.object, $0.keys) }).map { unsafeDowncast($0, to: T.self) }
    }
}
