// Saving 10,000 changed objects from a child context into its parent against saving them to the
// store, interleaved round by round. Both change the same two attributes of the same objects of a
// 100,000-object store; contexts are made, filled and changed outside the timing, and each
// contender checks what it saved.
//
//     swift run -c release compare-child-save [ROUNDS]     (default 10)
import DataStore
import Foundation
import StoreFixtures

let rounds = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 10
let changedCount = 10_000
let filled = try StoreFixtures.filledStoreURL()
let timings = RoundTimings()

func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

/// The first `changedCount` items of `context`, each with a new name and quantity.
func changeItems(in context: ObjectContext, round: Int) throws -> [Item] {
    var request = FetchRequest<Item>(predicate: try ObjectPredicate(format: "quantity < %d", changedCount))
    request.sortDescriptors = [ObjectSortDescriptor("quantity")]
    let items = try context.fetch(request)
    expect(items.count == changedCount, "fetched \(items.count) items")
    for item in items {
        item.name = "Round \(round) \(item.quantity)"
        item.quantity += 1_000_000
    }
    return items
}

for round in 0..<rounds {
    do {
        let copy = StoreFixtures.newStoreURL()
        try FileManager.default.copyItem(at: filled, to: copy)
        let context = try PersistentStore(url: copy, model: StoreFixtures.model).newContext()
        _ = try changeItems(in: context, round: round)
        try timings.measure("save to the store") { try context.save() }
        let check = try context.store.newContext().count(for: FetchRequest<Item>(predicate: try ObjectPredicate(format: "quantity >= 1000000")))
        expect(check == changedCount, "the store has \(check) changed items")
        try? FileManager.default.removeItem(at: copy.deletingLastPathComponent())
    }
    do {
        let parent = try PersistentStore(url: filled, model: StoreFixtures.model).newContext()
        let parentItems = try parent.fetch(FetchRequest<Item>())
        let child = parent.newChildContext()
        _ = try changeItems(in: child, round: round)
        try timings.measure("save from a child into its parent") { try child.save() }
        expect(parent.updatedObjects.count == changedCount, "the parent has \(parent.updatedObjects.count) changed items")
        expect(parentItems.filter { $0.quantity >= 1_000_000 }.count == changedCount, "the parent's items lack the changes")
    }
}

print("Saving \(changedCount) changed objects (median of \(rounds) interleaved rounds)")
let floor = timings.median("save to the store")
for name in ["save to the store", "save from a child into its parent"] {
    let figures = String(format: "%9.2f ms  %5.2f×", timings.median(name), timings.median(name) / floor)
    print("  \(name.padding(toLength: 36, withPad: " ", startingAt: 0)) \(figures)")
}
