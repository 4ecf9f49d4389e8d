import DataStore
import Testing

/// Records what a results controller reports, one line per callback.
final class RecordingDelegate<Object: ManagedObject>: FetchedResultsControllerDelegate {
    var events: [String] = []
    /// The changes of the last report.
    var sectionChanges: [FetchedResultsSectionChange] = []
    var changes: [FetchedResultsChange] = []
    var reports = 0
    var titles: [String: String] = [:]

    func controllerWillChangeContent(_ controller: FetchedResultsController<Object>) {
        events.append("will change")
        sectionChanges = []
        changes = []
    }

    func controller(_ controller: FetchedResultsController<Object>, didChange section: FetchedResultsSectionChange) {
        events.append(section.description)
        sectionChanges.append(section)
    }

    func controller(_ controller: FetchedResultsController<Object>, didChange change: FetchedResultsChange) {
        events.append(change.description)
        changes.append(change)
    }

    func controllerDidChangeContent(_ controller: FetchedResultsController<Object>) {
        events.append("did change")
        reports += 1
    }

    func controller(_ controller: FetchedResultsController<Object>, sectionIndexTitleForSectionName name: String) -> String? {
        titles[name]
    }

    /// The object changes of the last report, without the bracketing lines.
    var lastChanges: [String] { changes.map(\.description) }
}

/// A list as a table view holds it, changed by a report under the table view's batch-update rules:
/// deletes (and move sources) at old index paths, section deletes at old indices, then section
/// inserts at new indices and inserts (and move destinations) at new index paths, ascending.
struct TableModel: Equatable, CustomStringConvertible {
    struct Section: Equatable {
        var name: String
        var items: [ObjectID]
    }

    var sections: [Section]

    init(_ snapshot: FetchedResultsSnapshot) {
        sections = snapshot.sections.map { Section(name: $0.name, items: $0.itemIdentifiers) }
    }

    var description: String {
        sections.map { "\($0.name): \($0.items.count)" }.joined(separator: ", ")
    }

    /// Follows a save's new IDs.
    mutating func rename(_ ids: [ObjectID: ObjectID]) {
        guard !ids.isEmpty else { return }
        for index in sections.indices { sections[index].items = sections[index].items.map { ids[$0] ?? $0 } }
    }

    enum Invalid: Error, CustomStringConvertible {
        case reason(String)
        var description: String { if case .reason(let text) = self { text } else { "" } }
    }

    /// Applies one report; throws when an index path is out of range or an object is reported twice.
    mutating func apply(_ sectionChanges: [FetchedResultsSectionChange], _ changes: [FetchedResultsChange]) throws {
        let old = self
        var seen = Set<ObjectID>()
        for change in changes where !seen.insert(change.objectID).inserted {
            throw Invalid.reason("\(change.objectID) reported twice")
        }
        for change in changes where change.type != .insert {
            guard let path = change.indexPath, old.sections.indices.contains(path.section),
                  old.sections[path.section].items.indices.contains(path.item),
                  old.sections[path.section].items[path.item] == change.objectID else {
                throw Invalid.reason("\(change) does not name its object in the old list \(old)")
            }
        }
        let removals = changes.filter { $0.type == .delete || $0.type == .move }.compactMap(\.indexPath).sorted(by: >)
        for path in removals { sections[path.section].items.remove(at: path.item) }
        for change in sectionChanges.filter({ $0.type == .delete }).sorted(by: { $0.sectionIndex > $1.sectionIndex }) {
            guard sections.indices.contains(change.sectionIndex), sections[change.sectionIndex].name == change.name else {
                throw Invalid.reason("\(change) is not in the old list")
            }
            guard sections[change.sectionIndex].items.isEmpty else { throw Invalid.reason("\(change) still has objects") }
            sections.remove(at: change.sectionIndex)
        }
        for change in sectionChanges.filter({ $0.type == .insert }).sorted(by: { $0.sectionIndex < $1.sectionIndex }) {
            guard change.sectionIndex <= sections.count else { throw Invalid.reason("\(change) is past the end") }
            sections.insert(Section(name: change.name, items: []), at: change.sectionIndex)
        }
        let insertions = changes.filter { $0.type == .insert || $0.type == .move }.sorted { $0.newIndexPath! < $1.newIndexPath! }
        for change in insertions {
            guard let path = change.newIndexPath, sections.indices.contains(path.section), path.item <= sections[path.section].items.count else {
                throw Invalid.reason("\(change) is out of range in \(self)")
            }
            sections[path.section].items.insert(change.objectID, at: path.item)
        }
    }
}
