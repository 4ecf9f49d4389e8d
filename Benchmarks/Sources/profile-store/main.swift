// Loops one runtime operation for profilers (perf, valgrind): profile-store insert|fetch|predicate [ROUNDS]
import DataStore
import Foundation
import StoreFixtures

let operation = CommandLine.arguments.dropFirst().first ?? "fetch"
let rounds = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 10
switch operation {
case "insert":
    for _ in 0..<rounds {
        let context = try PersistentStore(url: StoreFixtures.newStoreURL(), model: StoreFixtures.model).newContext()
        try StoreFixtures.insertAll(into: context)
    }
case "predicate":
    let store = try PersistentStore(url: try StoreFixtures.filledStoreURL(), model: StoreFixtures.model)
    let request = try PredicateFixture.request()
    for _ in 0..<rounds {
        let items = try store.newContext().fetch(request)
        precondition(items.count == StoreFixtures.objectCount)
    }
default:
    let store = try PersistentStore(url: try StoreFixtures.filledStoreURL(), model: StoreFixtures.model)
    for _ in 0..<rounds {
        let items = try store.newContext().fetch(FetchRequest<Item>())
        precondition(items.count == StoreFixtures.objectCount)
    }
}
