import DataModelParser
import DataStore
import Foundation

/// The upsert benchmark: 100,000 listings keyed by a unique `code` are saved into a store that
/// already holds every even code (50,000 rows), so half of them clash and merge into the stored
/// ones; the baseline saves the same 100,000 into an empty store of the same model, as a plain
/// insert (the default `error` policy, which looks for no clash).
public enum UpsertFixture {
    public static let objectCount = StoreFixtures.objectCount

    public static let model: ManagedObjectModel = {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Listing" representedClassName="Listing">
                    <attribute name="code" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <attribute name="price" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                    <uniquenessConstraints>
                        <uniquenessConstraint><constraint value="code"/></uniquenessConstraint>
                    </uniquenessConstraints>
                </entity>
            </model>
            """
        let parsed = try! ModelParser.parse(Array(xml.utf8), path: "Listing.xcdatamodel/contents")
        return ManagedObjectModel(model: parsed.model, classes: [Listing.self])
    }()

    /// A store holding the listings of every even code, with the first price.
    public static func halfFilledStoreURL() throws -> URL {
        let url = StoreFixtures.newStoreURL()
        let context = try PersistentStore(url: url, model: model).newContext()
        for code in stride(from: 0, to: objectCount, by: 2) { fill(Listing(context: context), code: code, price: 1) }
        try context.save()
        return url
    }

    /// Inserts a listing of every code, priced 2, and saves once under `policy`.
    public static func saveAll(into context: ObjectContext, policy: MergePolicy) throws {
        context.mergePolicy = policy
        for code in 0..<objectCount { fill(Listing(context: context), code: code, price: 2) }
        try context.save()
    }

    /// Checks that the store holds one listing per code, each with the saved price.
    public static func verify(_ store: PersistentStore) throws {
        let context = store.newContext()
        let count = try context.count(for: FetchRequest<Listing>())
        let repriced = try context.count(for: FetchRequest<Listing>(predicate: try ObjectPredicate(format: "price == 2")))
        precondition(count == objectCount && repriced == objectCount, "\(count) listings, \(repriced) repriced")
    }

    private static func fill(_ listing: Listing, code: Int, price: Double) {
        listing.code = Int64(code)
        listing.name = "Listing \(code)"
        listing.price = price
    }
}

/// A listing with a unique code, as generated code declares it.
public final class Listing: ManagedObject {
    public override class var entityName: String { "Listing" }

    public var code: Int64 { get { self[Listing.code, _code] } set { write(newValue, to: Listing.code, current: _code) { _code = $0 } } }
    public var name: String? { get { self[Listing.name, _name] } set { write(newValue, to: Listing.name, current: _name) { _name = $0 } } }
    public var price: Double { get { self[Listing.price, _price] } set { write(newValue, to: Listing.price, current: _price) { _price = $0 } } }

    public static let code = AttributeKey<Listing, Int64>("code", slot: 0)
    public static let name = AttributeKey<Listing, String?>("name", slot: 1)
    public static let price = AttributeKey<Listing, Double>("price", slot: 2)

    @exclusivity(unchecked) private var _code: CompactOptional<Int64> = nil
    @exclusivity(unchecked) private var _name: String?
    @exclusivity(unchecked) private var _price: CompactOptional<Double> = nil

    public override class var generatedModel: ManagedObjectModel? { UpsertFixture.model }

    public override func visitStoredAttributes(_ visitor: inout StoredAttributeVisitor) {
        visitor.visit(&_code)
        visitor.visit(&_name)
        visitor.visit(&_price)
    }
}
