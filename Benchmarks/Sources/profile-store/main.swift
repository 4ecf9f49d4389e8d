// Loops one runtime operation for profilers (perf, valgrind) and prints the fastest and the median
// round: profile-store insert|fetch|predicate|list-insert-delete [ROUNDS]
import DataStore
import Foundation
import StoreFixtures

let operation = CommandLine.arguments.dropFirst().first ?? "fetch"
let rounds = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 10
var durations: [Duration] = []

/// Runs `body` and keeps its duration.
@MainActor func timed(_ body: () throws -> Void) rethrows {
    let clock = ContinuousClock()
    let start = clock.now
    try body()
    durations.append(clock.now - start)
}

switch operation {
case "insert":
    for _ in 0..<rounds {
        let context = try PersistentStore(url: StoreFixtures.newStoreURL(), model: StoreFixtures.model).newContext()
        try timed { try StoreFixtures.insertAll(into: context) }
    }
case "predicate":
    let store = try PersistentStore(url: try StoreFixtures.filledStoreURL(), model: StoreFixtures.model)
    let request = try PredicateFixture.request()
    for _ in 0..<rounds {
        try timed {
            let items = try store.newContext().fetch(request)
            precondition(items.count == StoreFixtures.objectCount)
        }
    }
case "list-insert-delete":
    // One insert and one delete delivered to a controller over 1,000,000 rows; ROUNDS of 1,000 each.
    let context = try PersistentStore(url: try ListFixture.storeURL(count: 1_000_000), model: StoreFixtures.model).newContext()
    let controller = FetchedResultsController(fetchRequest: ListFixture.request(sections: false), context: context)
    let delegate = CountingDelegate()
    controller.delegate = delegate
    try controller.performFetch()
    for _ in 0..<rounds {
        timed {
            for _ in 0..<1_000 {
                let item = Item(context: context)
                item.price = Double(1_000_000 / 3) + 0.5
                context.processPendingChanges()
                context.delete(item)
                context.processPendingChanges()
            }
        }
    }
    precondition(delegate.changes == 2_000 * rounds, "\(delegate.changes) changes reported")
default:
    let store = try PersistentStore(url: try StoreFixtures.filledStoreURL(), model: StoreFixtures.model)
    for _ in 0..<rounds {
        try timed {
            let items = try store.newContext().fetch(FetchRequest<Item>())
            precondition(items.count == StoreFixtures.objectCount)
        }
    }
}
let sorted = durations.sorted()
print("\(operation): fastest \(sorted[0]), median \(sorted[sorted.count / 2]) of \(rounds) rounds")

/// Counts the changes a controller reports, so that it tracks them.
final class CountingDelegate: FetchedResultsControllerDelegate {
    var changes = 0

    func controller(_ controller: FetchedResultsController<Item>, didChange change: FetchedResultsChange) {
        changes += 1
    }
}
