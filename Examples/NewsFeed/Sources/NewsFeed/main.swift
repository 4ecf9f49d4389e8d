// A news reader's persistence layer at work: the feed is imported twice on background contexts,
// the view context's list follows each import by itself, an article read in the list keeps its
// state through the next import, and deleting a source takes its articles and their thumbnails.
//
//     swift run --package-path Examples/NewsFeed NewsFeed
import DataStore
import Foundation

@MainActor func run() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("NewsFeed-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let persistence = Persistence(directory: directory)
    try await persistence.load()
    let view = persistence.container.viewContext
    let list = try HeadlineList(context: view)
    let importer = FeedImporter(persistence: persistence)

    print("import: \(try await importer.importPage(FeedPages.first)) items")
    try await list.waitForCount(4)
    print(list.lines.joined(separator: "\n"))

    // The reader opens the first article, and the app caches its thumbnail.
    let first = try require(list.controller.fetchedObjects?.first, "the newest article")
    first.isRead = true
    let thumbnail = directory.appendingPathComponent("swift-6-3.png")
    try Data([0x89, 0x50, 0x4E, 0x47]).write(to: thumbnail)
    first.thumbnailPath = thumbnail.path
    try await view.save()
    let firstID = first.objectID

    print("import: \(try await importer.importPage(FeedPages.second)) items")
    try await list.waitForCount(5)
    print(list.lines.joined(separator: "\n"))
    let sources = try await view.fetch(FetchRequest<Source>(predicate: nil, sortDescriptors: [ObjectSortDescriptor(Source.name)]))
    print("sources: \(sources.map { "\($0.name ?? "?") (\($0.articles.count))" }.joined(separator: ", "))")
    let updated = try require(try view.existingObject(with: firstID) as? Article, "the read article")
    print("upserted: \(updated.title) — read: \(updated.isRead == true), same object: \(updated === first)")

    // Deleting a source cascades to its articles; each takes its thumbnail with it.
    try await persistence.container.performBackgroundTask { context in
        let swift = try context.fetch(FetchRequest<Source>(predicate: Source.name == "Swift.org"))
        for source in swift { context.delete(source) }
        try context.save()
    }
    try await list.waitForCount(2)
    print(list.lines.joined(separator: "\n"))
    print("thumbnail removed: \(!FileManager.default.fileExists(atPath: thumbnail.path))")
}

/// `value`, or a failure naming what was missing.
func require<Value>(_ value: Value?, _ what: String = "a value") throws -> Value {
    guard let value else { throw ExampleFailure("missing \(what)") }
    return value
}

do {
    try await run()
} catch {
    FileHandle.standardError.write(Data("NewsFeed: error: \(error)\n".utf8))
    exit(1)
}
