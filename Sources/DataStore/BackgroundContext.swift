/// A context with its own isolation: work on it through `perform`, from any task.
///
///     let background = store.newBackgroundContext()
///     let count = try await background.perform { context in
///         let book = Book(context: context)
///         book.title = "Emma"
///         try context.save()
///         return book.objectID
///     }
///
/// Objects never leave `perform` (they are not `Sendable`); return `ObjectID`s or plain values.
public actor BackgroundContext {
    private let context: ObjectContext

    init(store: PersistentStore) {
        context = ObjectContext(store: store)
    }

    /// Runs `body` on the context, on this actor.
    public func perform<Result: Sendable, Failure: Error>(
        _ body: (ObjectContext) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(context)
    }
}
