import DataStore
import Foundation
import GeneratedBooks
import GeneratedHostileNames
import Library
import Testing

/// The generated classes, builders and constants at work against a real store.
@Suite struct GeneratedCodeTests {
    @Test func templateBuilders_returnTypedRequestsWithTheirParameters() throws {
        let store = try PersistentStore.inMemory(model: Books.model)
        let context = store.newContext()
        for (title, price) in [("War and Peace", 12.0), ("Peace Talks", 30.0), ("Émile", 8.5)] {
            let book = try context.insert(GeneratedBooks.Book.self)
            book.title = title
            book.price = price
        }
        try context.save()

        var cheap = Books.FetchRequests.cheaperThan(maxPrice: 13)
        cheap.sortDescriptors = [ObjectSortDescriptor(GeneratedBooks.Book.price)]
        #expect(try context.fetch(cheap).map(\.title) == ["Émile", "War and Peace"])
        #expect(try context.count(for: Books.FetchRequests.titled(text: "PEACE")) == 2)
        #expect(try context.count(for: Books.FetchRequests.titled(text: "emile")) == 1, "[cd] folds the accent")
        let typed = GeneratedBooks.Book.fetchRequest()
        #expect(try context.count(for: typed) == 3)
        #expect(GeneratedBooks.Book.price.name == "price", "keys carry the model's names")
    }

    @Test func templateSettings_carryIntoTheRequest() {
        let request = Everything.FetchRequests.booksByAuthor(authorName: "Tolstoy")
        #expect(request.fetchLimit == 50)
        #expect(request.fetchBatchSize == 20)
        #expect(!request.includesSubentities)
        #expect(!request.includesPendingChanges)
        #expect(request.predicate?.predicateFormat == #"author.name == "Tolstoy""#)
    }

    @Test func relationshipsMutatorsAndFetchedProperties_work() throws {
        let store = try PersistentStore.inMemory(model: Everything.model)
        let context = store.newContext()
        let tolstoy = try context.insert(Library.Author.self)
        tolstoy.name = "Tolstoy"
        let war = try context.insert(Library.Book.self)
        war.title = "War and Peace"
        let anna = try context.insert(Library.Ebook.self)
        anna.title = "Anna Karenina"
        let other = try context.insert(Library.Book.self)
        other.title = "Other"
        tolstoy.addToBooks(war)
        tolstoy.addToBooks(anna)
        #expect(anna.author === tolstoy, "the inverse is kept")

        let first = try context.insert(Library.Chapter.self)
        first.index = 1
        let second = try context.insert(Library.Chapter.self)
        second.index = 2
        war.addToChapters(second)
        war.insertIntoChapters(first, at: 0)
        #expect(war.chapters.map(\.index) == [1, 2])
        war.removeFromChapters(second)
        #expect(war.chapters.map(\.index) == [1])
        #expect(second.book == nil)
        context.delete(second)  // a chapter needs its book
        try context.save()

        var sameAuthor = war.sameAuthorBooks
        sameAuthor.sortDescriptors = [ObjectSortDescriptor(Library.Book.title)]
        #expect(try context.fetch(sameAuthor).map(\.title) == ["Anna Karenina"])
        #expect(try context.fetch(Everything.FetchRequests.booksByAuthor(authorName: "Tolstoy")).map(\.title) == ["War and Peace"],
                "includesSubentities = false leaves the Ebook out")
        #expect(Library.Ebook.title.name == "title", "inherited keys are reached through the subclass")
        #expect(Library.Ebook.author.name == "author")
    }

    @Test func renamedProperties_stillStoreUnderTheModelsNames() throws {
        let store = try PersistentStore.inMemory(model: HostileNamesModel.model)
        let context = store.newContext()
        let data = try context.insert(DataEntity.self)
        data.description_ = "text"
        data.default = 7
        data.objectID_ = "not an object ID"
        let type = try context.insert(TypeEntity.self)
        type.for = "keyword"
        type.addToSelf_(data)
        let café = try context.insert(Café.self)
        café.größe = 1.5
        try context.save()

        let check = store.newContext()
        let read = try #require(try check.fetch(DataEntity.fetchRequest()).first)
        #expect(read.value(forKey: "description") as? String == "text")
        #expect(read.default == 7)
        #expect(read.type?.for == "keyword")
        #expect(try check.fetch(Café.fetchRequest()).first?.größe == 1.5)
        #expect(DataEntity.entityName == "Data")
    }
}
