import DataStore
import Foundation

/// The list screen: the newest articles first, kept by a results controller on the view
/// context, which reports each change as a table view would animate it.
@MainActor final class HeadlineList: FetchedResultsControllerDelegate {
    let controller: FetchedResultsController<Article>
    /// What the screen would show, one line per article.
    private(set) var lines: [String] = []

    init(context: ObjectContext) throws {
        var request = FetchRequest<Article>()
        request.sortDescriptors = [ObjectSortDescriptor(Article.publishedAt, ascending: false)]
        controller = FetchedResultsController(fetchRequest: request, context: context)
        controller.delegate = self
        try controller.performFetch()
        redraw()
    }

    nonisolated func controller(_ controller: FetchedResultsController<Article>, didChange change: FetchedResultsChange) {
        MainActor.assumeIsolated { print("list: \(change)") }
    }

    nonisolated func controllerDidChangeContent(_ controller: FetchedResultsController<Article>) {
        MainActor.assumeIsolated { redraw() }
    }

    private func redraw() {
        lines = (controller.fetchedObjects.map(Array.init) ?? []).map { article in
            "\(article.isRead == true ? "  " : "* ")\(article.title) (\(article.source?.name ?? "?"))"
        }
    }

    /// Waits, letting the view context merge, until the list shows `count` articles.
    func waitForCount(_ count: Int) async throws {
        for _ in 0..<500 where lines.count != count { try await Task.sleep(for: .milliseconds(10)) }
        guard lines.count == count else { throw ExampleFailure("the list shows \(lines.count) articles, not \(count)") }
    }

    func print(_ text: String) {
        Swift.print(text)
    }
}

struct ExampleFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
