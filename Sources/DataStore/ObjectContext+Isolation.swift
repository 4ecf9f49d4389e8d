import Dispatch
import Foundation

/// Contexts of one tree on different isolations — a private-queue child of the main actor's
/// context, or a main-actor child of a `BackgroundContext` — as Core Data apps arrange them.
///
/// A child reads its parent (faults, fetches of unsaved changes) and saves into it on the
/// parent's isolation, its own thread waiting meanwhile, as Core Data's child contexts wait with
/// `performAndWait` on their parent: neither context is ever used by two threads at once. The
/// other way, a parent tells a child of permanent IDs on the child's isolation, without waiting.
/// Isolations a context can be reached on are the main actor and a `BackgroundContext`'s queue;
/// contexts without an isolation share the one of the code that uses them.
extension ObjectContext {
    /// A child of this context with its own queue — a private-queue child of the main actor's
    /// context, as Core Data apps make one for an edit screen or an import. Call it where this
    /// context is used. The child's fetches see this context's unsaved changes, its faults fill
    /// from this context's objects, and its `save()` moves its changes here, each on this
    /// context's isolation while the child's queue waits; this context's results controllers hear
    /// of them here. This context is on the main actor or is a `BackgroundContext`'s. From this
    /// context's isolation, wait for the child with `await child.perform`: its `performAndWait`
    /// blocks this isolation until the child's queue is free, and work on that queue that reads
    /// this context would wait for it in turn.
    public func newBackgroundChildContext() -> BackgroundContext {
        precondition(IsolationHop.canReach(isolation), "a parent on another isolation is on the main actor or a BackgroundContext's queue")
        return BackgroundContext(child: UncheckedSendable(ObjectContext(parent: self, isolation: nil)))
    }

    /// Runs `body` where `other` is used: at once when that is here, else on `other`'s isolation,
    /// waiting for it.
    func withIsolation<T, Failure: Error>(of other: ObjectContext, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        other.isolation === isolation ? try body() : try IsolationHop.run(on: other.isolation, body)
    }

    /// Renames the objects that saves of an ancestor on another isolation gave permanent IDs.
    func takePermanentIDNotices() {
        guard parent != nil else { return }
        let notices = permanentIDNotices.withLock { notices in
            defer { notices.removeAll() }
            return notices
        }
        for ids in notices { adoptPermanentIDs(ids) }
    }

    /// Whether an asynchronous save of the tree's top context is writing, asked where it is used.
    var isTopContextSavingAsynchronously: Bool {
        let top = topContext
        return withIsolation(of: top) { top.isSavingAsynchronously }
    }

    /// Tells each child of the permanent IDs a save gave: at once on this isolation, later on
    /// another, in order with the child's other work.
    func tellChildren(ofPermanentIDs ids: PermanentIDs) {
        for child in children {
            guard let context = child.context else { continue }
            if context.isolation === isolation {
                context.adoptPermanentIDs(ids)
            } else {
                // Posted, then taken by the child's next read or by the scheduled work, whichever
                // comes first: no read of the child finds a saved row before its object is renamed.
                context.permanentIDNotices.withLock { $0.append(ids) }
                let reference = UncheckedSendable(context)
                IsolationHop.schedule(on: context.isolation) { reference.value.takePermanentIDNotices() }
            }
        }
    }
}

/// Running code on the isolation a context is used on.
enum IsolationHop {
    /// Runs `body` on `isolation`, the calling thread waiting: on the main queue for the main
    /// actor, on its queue for a `BackgroundContext`. At once when the caller runs there already,
    /// or when the caller's thread holds it, waiting for this one (the main actor waiting in a
    /// child's `performAndWait`): nothing else can run there meanwhile.
    static func run<T, Failure: Error>(on isolation: (any Actor)?, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        let background = isolation as? BackgroundContext
        guard background != nil || isolation === MainActor.shared else { return try body() }
        let target = background.map { ObjectIdentifier($0.queueExecutor) } ?? mainQueue
        if currentQueue == target || heldQueues.contains(target) { return try body() }
        let result: Result<T, Failure> = holdingCurrentQueue {
            if let background { return background.queueExecutor.runAndWait { Result(catching: body) } }
            return withoutActuallyEscaping(body) { body in
                let waiting = UncheckedSendable(body)
                return DispatchQueue.main.sync { Result(catching: waiting.value) }
            }
        }
        return try result.get()
    }

    /// Runs `wait`, which blocks the calling thread until another queue has run some work, with
    /// the caller's queue marked as held by this thread: work that comes back to it runs here.
    static func holdingCurrentQueue<T>(_ wait: () -> T) -> T {
        guard let current = currentQueue else { return wait() }
        let previous = heldQueues
        heldQueues = previous + [current]
        defer { heldQueues = previous }
        return wait()
    }

    /// The queues the current thread holds while it waits for other queues: the thread's own, so
    /// that no task started meanwhile inherits them.
    private static var heldQueues: [ObjectIdentifier] {
        get { Thread.current.threadDictionary[heldQueuesKey] as? [ObjectIdentifier] ?? [] }
        set { Thread.current.threadDictionary[heldQueuesKey] = newValue }
    }

    private static let heldQueuesKey = "DataStore.IsolationHop.heldQueues"

    /// The queue the caller runs on, when it is the main queue or a `BackgroundContext`'s.
    static var currentQueue: ObjectIdentifier? {
        DispatchQueue.getSpecific(key: queueKey)
    }

    /// Names the main queue and each `BackgroundContext`'s queue, so that code can tell where it runs.
    static let queueKey: DispatchSpecificKey<ObjectIdentifier> = {
        let key = DispatchSpecificKey<ObjectIdentifier>()
        DispatchQueue.main.setSpecific(key: key, value: ObjectIdentifier(MainActor.shared))
        return key
    }()

    /// The main queue's name under `queueKey`: where the main actor's work runs (on whichever
    /// thread drains it, not always the process's first).
    private static let mainQueue = ObjectIdentifier(MainActor.shared)

    /// Schedules `body` on `isolation` and returns at once.
    static func schedule(on isolation: (any Actor)?, _ body: @escaping @Sendable () -> Void) {
        if let background = isolation as? BackgroundContext {
            background.queueExecutor.queue.async(execute: body)
        } else if isolation === MainActor.shared {
            DispatchQueue.main.async(execute: body)
        } else {
            body()
        }
    }

    /// Whether code can reach `isolation` from elsewhere: the main actor or a `BackgroundContext`
    /// (not a context its caller owns, which has no queue to run on).
    static func canReach(_ isolation: (any Actor)?) -> Bool {
        isolation === MainActor.shared || isolation is BackgroundContext
    }
}

/// A value carried to another thread while its owner waits for it there, or to the isolation
/// where alone it is used.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
