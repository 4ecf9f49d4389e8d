import DataStore
import Foundation

/// One entry of the feed, as the server sends it.
struct FeedItem: Decodable, Sendable {
    var id: String
    var title: String
    var summary: String?
    var published: Date
    var source: String
}

/// Imports pages of the feed. Each item becomes a new `Article` and a new `Source`, and the
/// save upserts them: the uniqueness constraints on `Article.identifier` and `Source.name` merge
/// every new object into the stored one with its value (or into the first new one), the new
/// values winning property by property. No fetch looks for existing objects first.
struct FeedImporter: Sendable {
    let persistence: Persistence

    /// Decodes a page and saves it on a background context; returns the number of items.
    func importPage(_ json: Data) async throws -> Int {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let items = try decoder.decode([FeedItem].self, from: json)
        return try await persistence.container.performBackgroundTask { context in
            context.mergePolicy = .mergeByPropertyObjectTrump
            for item in items {
                let source = Source(context: context)
                source.name = item.source
                let article = Article(context: context)
                article.identifier = item.id
                article.title = item.title
                article.summary = item.summary
                article.publishedAt = item.published
                article.source = source
            }
            try context.save()
            return items.count
        }
    }
}
