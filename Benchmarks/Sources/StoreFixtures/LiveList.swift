import DataStore
import Foundation

/// A live results controller over a list fixture's store, on its own context, and a delegate
/// that counts what it is told: one change at a time, delivered as a list on screen receives it.
public final class LiveList {
    public let context: ObjectContext
    public let controller: FetchedResultsController<Item>
    public let delegate = CountingDelegate()

    public convenience init(url: URL) throws {
        try self.init(context: PersistentStore(url: url, model: StoreFixtures.model).newContext())
    }

    public init(context: ObjectContext) throws {
        self.context = context
        controller = FetchedResultsController(fetchRequest: ListFixture.request(sections: false), context: context)
        controller.delegate = delegate
        try controller.performFetch()
    }

    /// Inserts an item with `price`, delivers the change, deletes it and delivers that.
    public func insertAndDelete(price: Double) {
        let item = Item(context: context)
        item.price = price
        context.processPendingChanges()
        context.delete(item)
        context.processPendingChanges()
    }

    /// Sends `object` to one end of the list (the other one next time) and delivers the change.
    public func move(_ object: Item, low: inout Bool) {
        object.price = low ? -1 : 1e12
        low.toggle()
        context.processPendingChanges()
    }
}

/// Counts the changes a controller reports, so that it tracks them.
public final class CountingDelegate: FetchedResultsControllerDelegate {
    public private(set) var changes = 0

    public func controller(_ controller: FetchedResultsController<Item>, didChange change: FetchedResultsChange) {
        changes += 1
    }
}
