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
/// time: another `save()` awaited meanwhile, and the asynchronous reads, wait for this one to end;
/// the synchronous `save()` and reads of the store throw `saveInProgress` instead of waiting.
extension ObjectContext {
    /// Saves every change in one transaction — or, in a child context, moves them into the
    /// parent — as the synchronous `save()` does, with the transaction run off the caller's
    /// isolation. On error nothing is written and the changes stay in the context.
    nonisolated(nonsending)
    public func save() async throws(SaveError) {
        await waitForAsynchronousSave()
        guard hasChanges || !misuses.isEmpty else { return }
        guard let save = try prepareSave() else { return }
        isSavingAsynchronously = true
        defer { endAsynchronousSave() }
        let (changes, store) = (save.changes, store)
        let result: SaveWriter.Result
        do {
            result = try await store.database.write { db in
                var writer = SaveWriter(changes, store: store)
                return try writer.write(db)
            }
        } catch {
            throw Self.saveError(error)
        }
        didSave(save, result, valuesMayHaveChanged: true)
    }

    /// Returns once no asynchronous save of this context is writing: saves and reads queue behind
    /// it in the order they came.
    nonisolated(nonsending)
    func waitForAsynchronousSave() async {
        while isSavingAsynchronously {
            await withCheckedContinuation { waitingForSave.append($0) }
        }
    }

    private func endAsynchronousSave() {
        isSavingAsynchronously = false
        let waiting = waitingForSave
        waitingForSave.removeAll()
        for continuation in waiting { continuation.resume() }
    }
}
