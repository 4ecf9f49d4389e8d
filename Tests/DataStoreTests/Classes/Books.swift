// The classes the generator is to produce for Models/Books.xcdatamodeld.
import DataStore
import Foundation

/// A `Book` of the Books model.
public final class Book: ManagedObject {
    public override class var entityName: String { "Book" }

    public static let price = AttributeKey<Book, Double>("price", slot: 0)
    public static let title = AttributeKey<Book, String>("title", slot: 1)

    public var price: Double {
        get { self[Book.price] }
        set { self[Book.price] = newValue }
    }

    public var title: String {
        get { self[Book.title] }
        set { self[Book.title] = newValue }
    }
}
