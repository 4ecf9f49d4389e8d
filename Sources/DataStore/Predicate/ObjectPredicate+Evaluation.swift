/// Evaluating a predicate on one object in memory, with its current (unsaved) values.
extension ObjectPredicate {
    /// Whether `object` matches: the same answer a fetch gives for the object's row once saved.
    ///
    ///     let isCheap = try ObjectPredicate(format: "price < 10").evaluate(with: book)
    ///
    /// Throws what a fetch would throw for a predicate that does not fit the object's entity.
    public func evaluate(with object: ManagedObject) throws(ContextError) -> Bool {
        guard let context = object.context else { return false }
        var resolver = PredicateResolver(store: context.store(of: object), entity: object.entity)
        resolver.coordinator = context.coordinator
        let resolved = try resolver.resolve(self)
        return PredicateEvaluator(context: context).evaluate(resolved, on: object)
    }
}
