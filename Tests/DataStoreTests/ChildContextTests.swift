import DataStore
import Foundation
import Library
import Testing

/// Child contexts: reading the parent's unsaved changes, saving into the parent, cancelling,
/// nesting, conflicts with the parent, and lists on the parent following a child's save.
@Suite struct ChildContextTests {
    typealias Author = Library.Author
    typealias Book = Library.Book
    typealias Chapter = Library.Chapter

    /// A store with two saved books by one author.
    static func savedLibrary() throws -> (PersistentStore, ObjectContext) {
        let store = try TestStores.newStore(TestStores.library)
        let context = store.newContext()
        let author = Author(context: context)
        author.name = "Jane Austen"
        for title in ["Emma", "Persuasion"] {
            let book = Book(context: context)
            book.title = title
            book.author = author
        }
        try context.save()
        return (store, context)
    }

    static func titles(_ context: ObjectContext) throws -> [String] {
        var request = FetchRequest<Book>()
        request.sortDescriptors = [ObjectSortDescriptor("title")]
        return try context.fetch(request).map(\.title)
    }

    static func storeTitles(_ store: PersistentStore) throws -> [String] {
        try titles(store.newContext())
    }

    @Test func childSave_reachesTheParent_thenTheStoreOnlyWithTheParentsSave() throws {
        let (store, parent) = try Self.savedLibrary()
        let child = parent.newChildContext()
        #expect(child.parent === parent)

        let emma = try #require(try child.fetch(FetchRequest<Book>(predicate: ObjectPredicate(format: "title == 'Emma'"))).first)
        emma.title = "Emma (1815)"
        let sanditon = Book(context: child)
        sanditon.title = "Sanditon"
        sanditon.author = emma.author
        try child.save()

        #expect(!child.hasChanges)
        #expect(parent.hasChanges)
        #expect(parent.insertedObjects.map(\.objectID) == [sanditon.objectID])
        #expect(try Self.titles(parent) == ["Emma (1815)", "Persuasion", "Sanditon"])
        #expect(try Self.storeTitles(store) == ["Emma", "Persuasion"])
        // The parent's objects carry the child's relationship edits, both sides.
        let parentSanditon = try #require(parent.registeredObject(for: sanditon.objectID) as? Book)
        #expect(parentSanditon.author?.name == "Jane Austen")
        #expect(parentSanditon.author?.books.count == 3)

        try parent.save()
        #expect(try Self.storeTitles(store) == ["Emma (1815)", "Persuasion", "Sanditon"])
        // The child's objects took their permanent IDs with the parent's save.
        #expect(!sanditon.objectID.isTemporaryID)
        #expect(sanditon.objectID == parentSanditon.objectID)
        #expect(child.registeredObject(for: parentSanditon.objectID) === sanditon)
    }

    @Test func discardingTheChild_cancels() throws {
        let (store, parent) = try Self.savedLibrary()
        do {
            let child = parent.newChildContext()
            let books = try child.fetch(FetchRequest<Book>())
            for book in books { book.title = "Changed" }
            _ = Book(context: child)
            child.delete(books[0])
        }
        #expect(!parent.hasChanges)
        #expect(try Self.titles(parent) == ["Emma", "Persuasion"])
        #expect(try Self.storeTitles(store) == ["Emma", "Persuasion"])
    }

    @Test func child_seesTheParentsUnsavedChanges_inFaultsFetchesAndCounts() throws {
        let (_, parent) = try Self.savedLibrary()
        let books = try parent.fetch(FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("title")]))
        books[0].title = "Zemma"
        parent.delete(books[1])
        let added = Book(context: parent)
        added.title = "Lady Susan"

        let child = parent.newChildContext()
        #expect(try Self.titles(child) == ["Lady Susan", "Zemma"])
        #expect(try child.count(for: FetchRequest<Book>()) == 2)
        let childAdded = try #require(child.object(with: added.objectID) as? Book)
        #expect(childAdded.title == "Lady Susan")
        #expect(childAdded !== added)
        var byPredicate = FetchRequest<Book>(predicate: try ObjectPredicate(format: "title BEGINSWITH 'Z'"))
        #expect(try child.fetch(byPredicate).map(\.title) == ["Zemma"])
        byPredicate.predicate = try ObjectPredicate(format: "author.name == 'Jane Austen'")
        #expect(try child.fetch(byPredicate).count == 1)
        // Changes made in the child stay there until it saves.
        childAdded.title = "Lady Susan (draft)"
        #expect(added.title == "Lady Susan")
    }

    /// A sort through a relationship reaches an object the parent changed and then deleted: the
    /// child reads the parent's values, as the parent does, not the store's row — though the
    /// child's fetch reads that row among the others, and keeps none of its unchanged objects.
    @Test func child_sortsThroughAnObjectItsParentDeleted_byTheParentsValues() throws {
        let store = try TestStores.newStore(TestStores.library)
        let setup = store.newContext()
        var featured: [Book] = []
        for (title, pages) in [("x", Int16(5)), ("y", 3)] {
            let shelf = Library.Shelf(context: setup), book = Book(context: setup), highlight = Book(context: setup)
            book.title = title
            book.shelf = shelf
            highlight.title = "featured on \(title)'s shelf"
            highlight.pageCount = pages
            shelf.featured = highlight
            featured.append(highlight)
        }
        try setup.save()

        let parent = store.newContext()
        let changed = try #require(try parent.existingObject(with: featured[0].objectID) as? Book)
        changed.pageCount = 0
        parent.delete(changed)
        let child = parent.newChildContext()
        var request = FetchRequest<Book>(predicate: try ObjectPredicate(format: "title IN {'x', 'y'}"))
        request.sortDescriptors = [ObjectSortDescriptor("shelf.featured.pageCount")]
        #expect(try parent.fetch(request).map(\.title) == ["x", "y"], "0 before 3")
        #expect(try child.fetch(request).map(\.title) == ["x", "y"])
    }

    @Test func grandchild_savesUpTwoLevels() throws {
        let (store, root) = try Self.savedLibrary()
        let child = root.newChildContext()
        let grandchild = child.newChildContext()
        let book = try #require(try grandchild.fetch(FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("title")])).first)
        book.title = "Emma, revised"
        let chapter = Chapter(context: grandchild)
        chapter.title = "Volume I"
        book.addToChapters(chapter)

        try grandchild.save()
        #expect(try Self.titles(child) == ["Emma, revised", "Persuasion"])
        #expect(try Self.titles(root) == ["Emma", "Persuasion"])
        try child.save()
        #expect(try Self.titles(root) == ["Emma, revised", "Persuasion"])
        #expect(try Self.storeTitles(store) == ["Emma", "Persuasion"])
        try root.save()
        let reread = store.newContext()
        let saved = try #require(try reread.fetch(FetchRequest<Book>(predicate: ObjectPredicate(format: "title == 'Emma, revised'"))).first)
        #expect(saved.chapters.map(\.title) == ["Volume I"])
        #expect(!chapter.objectID.isTemporaryID)
        #expect(chapter.objectID == saved.chapters.first?.objectID)
    }

    @Test func parentChangedTheSameObject_isAConflict_andNothingMoves() throws {
        let (_, parent) = try Self.savedLibrary()
        let child = parent.newChildContext()
        let childBooks = try child.fetch(FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("title")]))
        childBooks[0].title = "Emma by the child"
        childBooks[1].title = "Persuasion by the child"
        let parentBooks = try parent.fetch(FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("title")]))
        parentBooks[0].title = "Emma by the parent"

        #expect(performing: { try child.save() }, throws: { error in
            guard case SaveError.conflicts(let conflicts) = error else { return false }
            return conflicts.map(\.objectID) == [parentBooks[0].objectID]
                && conflicts.first?.origin == .parentContext(changedProperties: ["title"])
                && "\(conflicts[0])".contains("changed in the parent context (title)")
        })
        #expect(child.hasChanges)
        #expect(parentBooks[1].title == "Persuasion")
        #expect(parentBooks[0].title == "Emma by the parent")

        // Reading the object again from the parent settles it.
        child.refresh(childBooks[0], mergeChanges: false)
        #expect(childBooks[0].title == "Emma by the parent")
        try child.save()
        #expect(parentBooks[1].title == "Persuasion by the child")
    }

    @Test func parentDeletedTheObject_isAConflict() throws {
        let (_, parent) = try Self.savedLibrary()
        let child = parent.newChildContext()
        let childBook = try #require(try child.fetch(FetchRequest<Book>()).first)
        childBook.title = "Edited"
        parent.delete(parent.object(with: childBook.objectID))
        #expect(performing: { try child.save() }, throws: { error in
            guard case SaveError.conflicts(let conflicts) = error else { return false }
            return conflicts.first?.storeVersion == nil && "\(conflicts[0])".contains("deleted in the parent context")
        })
    }

    @Test func childSave_validates_andAppliesDeleteRules() throws {
        let (store, parent) = try Self.savedLibrary()
        let child = parent.newChildContext()
        let book = Book(context: child)
        book.title = ""
        #expect(performing: { try child.save() }, throws: { error in
            guard case SaveError.validation(let failures) = error else { return false }
            return failures.count == 1
        })
        #expect(!parent.hasChanges)
        child.delete(book)

        // Cascade: deleting a book in the child deletes its chapters, in the parent after the save.
        let saved = try #require(try child.fetch(FetchRequest<Book>()).first)
        for number in 1...2 {
            let chapter = Chapter(context: child)
            chapter.title = "Chapter \(number)"
            saved.addToChapters(chapter)
        }
        try child.save()
        try parent.save()
        #expect(try store.newContext().count(for: FetchRequest<Chapter>()) == 2)

        child.delete(saved)
        try child.save()
        #expect(parent.deletedObjects.count == 3)
        #expect(try parent.count(for: FetchRequest<Chapter>()) == 0)
        try parent.save()
        #expect(try store.newContext().count(for: FetchRequest<Chapter>()) == 0)
        #expect(try Self.storeTitles(store).count == 1)
    }

    @Test func controllerOnTheParent_reportsTheChildsSave() throws {
        let (_, parent) = try Self.savedLibrary()
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("title")]), context: parent)
        let delegate = RecordingDelegate<Book>()
        controller.delegate = delegate
        try controller.performFetch()

        let child = parent.newChildContext()
        let books = try child.fetch(FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("title")]))
        books[1].title = "A Persuasion"
        child.delete(books[0])
        let added = Book(context: child)
        added.title = "Sanditon"
        try child.save()

        #expect(controller.fetchedObjects?.map(\.title) == ["A Persuasion", "Sanditon"])
        #expect(delegate.reports == 1)
        #expect(delegate.changes.count == 3)
        // Saving the parent gives the inserted object its permanent ID in the same place.
        try parent.save()
        #expect(controller.fetchedObjects?.allSatisfy { !$0.objectID.isTemporaryID } == true)
    }

    @Test func controllerOnTheChild_followsTheChildsEdits() throws {
        let (_, parent) = try Self.savedLibrary()
        let child = parent.newChildContext()
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<Book>(predicate: nil, sortDescriptors: [ObjectSortDescriptor("title")]), context: child)
        let delegate = RecordingDelegate<Book>()
        controller.delegate = delegate
        try controller.performFetch()
        let book = Book(context: child)
        book.title = "Another"
        child.processPendingChanges()
        #expect(controller.fetchedObjects?.map(\.title) == ["Another", "Emma", "Persuasion"])
        #expect(delegate.reports == 1)
        try child.save()
        try parent.save()
        #expect(controller.fetchedObjects?.allSatisfy { !$0.objectID.isTemporaryID } == true)
        #expect(controller.fetchedObjects?.map(\.title) == ["Another", "Emma", "Persuasion"])
    }
}
