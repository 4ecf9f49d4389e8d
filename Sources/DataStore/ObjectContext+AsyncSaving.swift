/// The asynchronous save: the values to write are read from the objects on the caller's
/// isolation, written in one transaction on the store's writer, and the objects brought in line
/// back on the caller's isolation.
///
///     @MainActor func addBook(titled title: String) async throws {
///         let book = Book(context: context)
///         book.title = title
///         try await context.save()
///     }
///
/// While the transaction runs, the caller's isolation is free, and the objects can go on changing:
/// what changes then stays an unsaved change, for the next save. The context runs one save at a
/// time: another `save()` awaited meanwhile, and the asynchronous reads of the context and its
/// children, wait for this one to end; their synchronous `save()` and reads of the store throw
/// `saveInProgress` instead of waiting. What judges objects by their saved values, which the save
/// is replacing, waits for its end: an undo or redo called meanwhile takes the step it would take
/// at the call, applied then; `refresh(_:mergeChanges:)` and `mergeChanges(from:)` run then; and
/// `rollback()` and `reset()` run then too, discarding what is unsaved at that point — changes
/// made after the call included. Results controllers that need the store meanwhile look again
/// then. Faults fire as usual: the rows they read are not among those the save writes.
extension ObjectContext {
    /// Saves every change in one transaction — or, in a child context, moves them into the
    /// parent — as the synchronous `save()` does, with the transaction run off the caller's
    /// isolation. On error nothing is written and the changes stay in the context.
    nonisolated(nonsending)
    public func save() async throws(SaveError) {
        await waitForAsynchronousSave()
        guard hasChanges || !misuses.isEmpty else { return }
        for attempt in 1... {
            guard let save = try prepareSave(firstAttempt: attempt == 1) else { return }
            isSavingAsynchronously = true
            let (changes, coordinator) = (save.changes, coordinator)
            let written: Result<SaveWriter.Result, any Error>
            do {
                written = .success(try await coordinator.write(changes))
            } catch {
                written = .failure(error)
            }
            // Observers told of the save may read the store at once.
            isSavingAsynchronously = false
            defer { runAfterAsynchronousSave() }
            switch written {
            case .success(let result):
                return didSave(save, result, valuesMayHaveChanged: true)
            case .failure(let error):
                let failure = saveFailed(save, error)
                guard attempt < Self.mergeAttempts, try settled(failure) else { throw failure }
                guard hasChanges else { return }
            }
        }
    }

    /// Returns once no asynchronous save of the store's changes from this context or an ancestor
    /// is writing: saves and reads queue behind it in the order they came.
    nonisolated(nonsending)
    func waitForAsynchronousSave() async {
        let writing = topContext
        while isTopContextSavingAsynchronously {
            await withCheckedContinuation { continuation in
                // Checked and queued in one step where the top context is used: its save cannot end between.
                let waits = withIsolation(of: writing) { () -> Bool in
                    guard writing.isSavingAsynchronously else { return false }
                    writing.waitingForSave.append(continuation)
                    return true
                }
                if !waits { continuation.resume() }
            }
        }
    }

    /// Runs `work` now, or, while an asynchronous save writes, when it ends: what judges objects
    /// by their saved values must not run between the save reading them and bringing them in line.
    func afterAsynchronousSave(_ work: @escaping (ObjectContext) -> Void) {
        guard isSavingAsynchronously else { return work(self) }
        deferredUntilSaved.append(work)
    }

    /// Runs `work` here now, or once the asynchronous save of the tree's top context ends — on this
    /// context's isolation, wherever the top context is used.
    func afterTopContextSave(_ work: @escaping () -> Void) {
        let top = topContext
        guard top.isolation !== isolation else { return top.afterAsynchronousSave { _ in work() } }
        let deferred = UncheckedSendable(work), isolation = isolation
        withIsolation(of: top) {
            top.afterAsynchronousSave { _ in IsolationHop.schedule(on: isolation) { deferred.value() } }
        }
    }

    /// Runs the work deferred until the save ended, then lets the waiting saves and reads go on.
    private func runAfterAsynchronousSave() {
        let deferred = deferredUntilSaved, waiting = waitingForSave
        deferredUntilSaved.removeAll()
        waitingForSave.removeAll()
        for work in deferred { work(self) }
        for continuation in waiting { continuation.resume() }
    }
}
