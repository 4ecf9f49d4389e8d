// The classes the generator is to produce for Models/Products.xcdatamodeld.
import DataStore
import Foundation

/// A `Products` of the Products model.
public class Products: ManagedObject {
    public override class var entityName: String { "Products" }

    public static let name = AttributeKey<Products, String>("name", slot: 0)
    public static let price = AttributeKey<Products, Double>("price", slot: 1)

    public var name: String {
        get { self[Products.name] }
        set { self[Products.name] = newValue }
    }

    public var price: Double {
        get { self[Products.price] }
        set { self[Products.price] = newValue }
    }
}

/// A `FavoriteProducts` of the Products model.
public final class FavoriteProducts: Products {
    public override class var entityName: String { "FavoriteProducts" }

    public static let favoritedAt = AttributeKey<FavoriteProducts, Date?>("favoritedAt", slot: 2)

    public var favoritedAt: Date? {
        get { self[FavoriteProducts.favoritedAt] }
        set { self[FavoriteProducts.favoritedAt] = newValue }
    }
}
