/// `perform` on a context used on its creator's isolation, in the shapes a `BackgroundContext`
/// has, so that code written for one runs on the other:
///
///     try await context.perform { context in try context.save() }
///
/// The context is already on its isolation (the type system keeps it there), so the work runs at
/// once, on the caller's isolation.
extension ObjectContext {
    /// Runs `body` with the context and returns its result.
    public func performAndWait<Result, Failure: Error>(_ body: (ObjectContext) throws(Failure) -> Result) throws(Failure) -> Result {
        try body(self)
    }

    /// Runs `body` with the context, on the caller's isolation, and returns its result.
    nonisolated(nonsending)
    public func perform<Result, Failure: Error>(_ body: (ObjectContext) throws(Failure) -> Result) async throws(Failure) -> Result {
        try body(self)
    }
}
