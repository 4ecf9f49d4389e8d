import Dispatch

/// A context with its own isolation — a serial queue, as Core Data's private-queue contexts —
/// used through `perform`, from any task or thread:
///
///     let background = store.newBackgroundContext()
///     let id = try await background.perform { context in
///         let book = Book(context: context)
///         book.title = "Emma"
///         try context.save()
///         return book.objectID
///     }
///
/// Objects never leave `perform`: the closures are `@Sendable`, so capturing another context's
/// objects, or returning this one's, does not compile. Return `ObjectID`s or plain values.
public actor BackgroundContext {
    /// Used on the queue only: by `perform`, and by contexts of its tree while it waits for them.
    nonisolated(unsafe) let context: ObjectContext
    private let executor: QueueExecutor
    /// The executor, whose queue contexts of this context's tree run their work for it on.
    nonisolated var queueExecutor: QueueExecutor { executor }

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(store: PersistentStore) {
        self.init(coordinator: PersistentStoreCoordinator(store: store))
    }

    init(coordinator: PersistentStoreCoordinator) {
        context = ObjectContext(coordinator: coordinator, isolation: nil)
        executor = QueueExecutor(label: "DataStore.BackgroundContext")
        context.isolation = self
    }

    /// A context with its own queue around `child`, a child context made for it.
    init(child: UncheckedSendable<ObjectContext>) {
        context = child.value
        executor = QueueExecutor(label: "DataStore.BackgroundContext")
        context.isolation = self
    }

    /// Runs `body` on the context's queue and returns its result.
    public nonisolated func perform<Result: Sendable, Failure: Error>(
        _ body: @Sendable (ObjectContext) throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        // Nonisolated, so that in synchronous code `perform { … }` can only mean the form that
        // schedules; in asynchronous code the async form is preferred.
        try await run(body)
    }

    private func run<Result: Sendable, Failure: Error>(
        _ body: @Sendable (ObjectContext) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(context)
    }

    /// Runs `body` on the context's queue, blocking the caller until it returns (at once when
    /// called from the queue itself). For synchronous code; `await perform` never blocks a thread.
    public nonisolated func performAndWait<Result: Sendable, Failure: Error>(
        _ body: @Sendable (ObjectContext) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let result: Swift.Result<Result, Failure> = IsolationHop.holdingCurrentQueue {
            executor.runAndWait {
                self.assumeIsolated { background in Swift.Result { () throws(Failure) -> Result in try body(background.context) } }
            }
        }
        return try result.get()
    }

    /// Schedules `body` on the context's queue and returns at once; scheduled bodies run in order.
    public nonisolated func perform(_ body: @escaping @Sendable (ObjectContext) -> Void) {
        executor.queue.async { self.assumeIsolated { body($0.context) } }
    }
}

/// Runs an actor's jobs on a serial dispatch queue, so that synchronous callers can join it there.
final class QueueExecutor: SerialExecutor {
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<Bool>()

    init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: true)
        queue.setSpecific(key: IsolationHop.queueKey, value: ObjectIdentifier(self))
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Lets `assumeIsolated` succeed on the queue, where the runtime has no current executor.
    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    /// Runs `body` on the queue and waits, or runs it at once when already there.
    func runAndWait<T>(_ body: () -> T) -> T {
        DispatchQueue.getSpecific(key: key) == true ? body() : queue.sync(execute: body)
    }
}
