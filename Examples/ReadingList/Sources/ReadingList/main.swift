// Writes a store with the first version of the model, then opens it as the app's current version
// does: the mapping model compiled into the app runs, with the app's migration policy.
//
//     swift run --package-path Examples/ReadingList ReadingList
import DataStore
import Foundation

let storeURL = FileManager.default.temporaryDirectory.appendingPathComponent("ReadingList-\(UUID().uuidString).sqlite")

do {
    // What the app's first release wrote: books whose author is text, through the model as version
    // 1 defines it (the generated code compiles every version).
    do {
        let store = try PersistentStore(url: storeURL, model: ManagedObjectModel(model: ReadingList.Versions.readingList1))
        let context = store.newContext()
        for (title, author, year) in [("Emma", "Jane Austen", 1815), ("Persuasion", "Jane Austen ", 1817),
                                      ("War and Peace", "Leo Tolstoy", 1869), ("Beowulf", "", 1000)] {
            let book = try context.insertObject(entityName: "Book")
            try book.setValue(title, forKey: "title")
            try book.setValue(author, forKey: "authorName")
            try book.setValue(year, forKey: "year")
        }
        try context.save()
        print("version 1: \(try context.count(for: FetchRequest<ManagedObject>(entityName: "Book"))) books")
    }

    // The app's current release: the mapping model runs on opening, with the policy it names.
    for step in try PersistentStore.migrationSteps(at: storeURL, model: ReadingList.model) { print("step: \(step)") }
    let migration = MigrationOptions(migrationPolicies: ["BookMigrationPolicy": { BookMigrationPolicy() }])
    let store = try PersistentStore(url: storeURL, model: ReadingList.model, migration: migration)
    let context = store.newContext()
    var books = Book.fetchRequest()
    books.sortDescriptors = [ObjectSortDescriptor(Book.title)]
    for book in try context.fetch(books) {
        print("\(book.title) (\(book.published)) — \(book.author?.name ?? "unknown author")")
    }
    var authors = Author.fetchRequest()
    authors.sortDescriptors = [ObjectSortDescriptor(Author.name)]
    print("books by author: " + (try context.fetch(authors).map { "\($0.name) \($0.books.count)" }).joined(separator: ", "))
    try? FileManager.default.removeItem(at: storeURL)
} catch {
    FileHandle.standardError.write(Data("ReadingList: error: \(error)\n".utf8))
    exit(1)
}
