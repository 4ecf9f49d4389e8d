/// Evaluating a predicate on one object in memory, with its current (unsaved) values.
extension ObjectPredicate {
    /// Whether `object` matches: the same answer a fetch gives for the object's row once saved.
    ///
    ///     let isCheap = try ObjectPredicate(format: "price < 10").evaluate(with: book)
    ///
    /// Throws what a fetch would throw for a predicate that does not fit the object's entity.
    public func evaluate(with object: ManagedObject) throws(ContextError) -> Bool {
        guard let context = object.context else { return false }
        let resolved = try PredicateResolver(store: context.store, entity: object.entity).resolve(self)
        return PredicateEvaluator(context: context).evaluate(resolved, on: object)
    }
}
