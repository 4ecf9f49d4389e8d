import DataStore
import Foundation
import Library
import Testing

/// `changedValues()`, `committedValues(forKeys:)`, `registeredObjects` and `refreshAllObjects()`,
/// as Core Data apps use them.
@Suite struct ChangedValuesTests {
    @Test(arguments: TestedEngine.available) func changedAndCommittedValues_tellWhatASaveWouldWrite(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(TestStores.library, on: engine) { store throws in
            let context = store.newContext()
            let austen = Author(context: context)
            austen.name = "Austen"
            let book = Book(context: context)
            book.title = "Emma"
            book.author = austen
            #expect(Set(book.changedValues().keys).isSuperset(of: ["title", "author"]), "an inserted object's: every property with a value")
            #expect(book.changedValues()["notes"] == nil)
            #expect(book.committedValues(forKeys: nil).isEmpty, "nothing is committed yet")
            try context.save()
            #expect(book.changedValues().isEmpty)

            let shelley = Author(context: context)
            shelley.name = "Shelley"
            book.title = "Frankenstein"
            book.notes = nil
            book.author = shelley
            let changed = book.changedValues()
            #expect(Set(changed.keys) == ["title", "author"], "notes was nil and stays nil")
            #expect(changed["title"] as? String == "Frankenstein")
            #expect((changed["author"] as? Author) === shelley)
            let committed = book.committedValues(forKeys: ["title", "author", "notes", "chapters"])
            #expect(committed["title"] as? String == "Emma")
            #expect((committed["author"] as? Author) === austen)
            #expect(committed["notes"] is NSNull)
            #expect((committed["chapters"] as? [ManagedObject])?.isEmpty == true)

            book.author = nil
            #expect(book.changedValues()["author"] is NSNull)
        }
    }

    @Test func registeredObjects_andRefreshAll() throws {
        let store = try TestStores.newStore(TestStores.library)
        let context = store.newContext()
        let kept = Author(context: context), changed = Author(context: context)
        (kept.name, changed.name) = ("Kept", "Changed")
        try context.save()
        #expect(context.registeredObjects == [kept, changed])

        let other = store.newContext()
        for author in try other.fetch(FetchRequest<Author>()) { author.name += " elsewhere" }
        try other.save()
        changed.name = "Mine"
        let inserted = Author(context: context)
        inserted.name = "New"
        context.refreshAllObjects()
        #expect(kept.isFault && kept.name == "Kept elsewhere", "an unchanged object reads the store at its next use")
        #expect(changed.name == "Mine" && changed.committedValues(forKeys: ["name"])["name"] as? String == "Changed elsewhere",
                "a changed one keeps its change over the store's values")
        #expect(inserted.name == "New" && inserted.isInserted)
        #expect(context.registeredObjects.contains(inserted))
    }
}
