import DataModel
import DataStore

/// Version 1 kept each book's author as text; version 2 keeps each author once, as an `Author`
/// its books link to. The mapping model (`ReadingList1to2.xcmappingmodel`) names this policy for
/// its books, as a Core Data app names an `NSEntityMigrationPolicy` subclass: it makes the book as
/// the mapping says, then links it to the author of its old `authorName`, made at the first book
/// that names them.
struct BookMigrationPolicy: MigrationPolicy {
    /// The typed keys the build plugin generated for this mapping's two versions of `Book`.
    typealias Keys = ReadingList.Migrations.BookToBook

    func createDestinationInstances(for source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        let book = try manager.createDestinationInstanceByDefault(for: source, in: mapping)
        guard let name = source[Keys.Source.authorName]?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { return }
        book[Keys.Destination.author] = try author(named: name, in: manager.destinationContext)
    }

    /// The author called `name` in the new store, made when no book named them before.
    private func author(named name: String, in context: ObjectContext) throws -> Author {
        if let known = try context.fetch(FetchRequest<Author>(predicate: Author.name == name)).first { return known }
        let author = try context.insert(Author.self)
        author.name = name
        return author
    }
}
