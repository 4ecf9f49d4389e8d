// Fills a store with a few books, then finds them with generated typed requests.
//
//     swift run --package-path Examples/Bookshelf bookshelf [STORE]
import DataStore
import Foundation

let storeURL = CommandLine.arguments.count > 1
    ? URL(fileURLWithPath: CommandLine.arguments[1])
    : FileManager.default.temporaryDirectory.appendingPathComponent("Bookshelf-\(UUID().uuidString).sqlite")

do {
    let store = try PersistentStore(url: storeURL, model: Bookshelf.model)
    let context = store.newContext()
    if try context.count(for: Book.fetchRequest()) == 0 {
        for (name, titles) in [("Leo Tolstoy", [("War and Peace", 12.5), ("Anna Karenina", 9.0)]),
                               ("Jane Austen", [("Emma", 7.25), ("Persuasion", 6.0)])] {
            let author = try context.insert(Author.self)
            author.name = name
            for (title, price) in titles {
                let book = try context.insert(Book.self)
                book.title = title
                book.price = price
                author.addToBooks(book)
            }
        }
        try context.save()
    }

    var cheap = Bookshelf.FetchRequests.cheaperThan(maxPrice: 10)
    cheap.sortDescriptors = [ObjectSortDescriptor(Book.price)]
    print("Under 10:")
    for book in try context.fetch(cheap) {
        print("  \(book.title) by \(book.author?.name ?? "?") — \(book.price)")
    }

    var tolstoy = Bookshelf.FetchRequests.byAuthor(name: "leo tolstoy")
    tolstoy.sortDescriptors = [ObjectSortDescriptor(Book.title)]
    print("By Tolstoy: \(try context.fetch(tolstoy).map(\.title).joined(separator: ", "))")

    let longTitles = try context.fetch(FetchRequest<Book>(predicate: Book.title.contains("and", options: .caseInsensitive)))
    print("Titles with 'and': \(longTitles.map(\.title).sorted().joined(separator: ", "))")
    print("Store: \(storeURL.path)")
} catch {
    FileHandle.standardError.write(Data("bookshelf: error: \(error)\n".utf8))
    exit(1)
}
