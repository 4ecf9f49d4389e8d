import DataModel
import DataModelParser
import DataStore
import Foundation

/// The benchmarks' entity: five attributes of the common types, as generated code declares it.
public final class Item: ManagedObject {
    public override class var entityName: String { "Item" }

    public var added: Date? { get { self[Item.added, _added] } set { write(newValue, to: Item.added, current: _added) { _added = $0 } } }
    public var isActive: Bool { get { self[Item.isActive, _isActive] } set { write(newValue, to: Item.isActive, current: _isActive) { _isActive = $0 } } }
    public var name: String? { get { self[Item.name, _name] } set { write(newValue, to: Item.name, current: _name) { _name = $0 } } }
    public var price: Double { get { self[Item.price, _price] } set { write(newValue, to: Item.price, current: _price) { _price = $0 } } }
    public var quantity: Int64 { get { self[Item.quantity, _quantity] } set { write(newValue, to: Item.quantity, current: _quantity) { _quantity = $0 } } }

    // Keys, for typed predicates and sort descriptors.
    public static let added = AttributeKey<Item, Date?>("added", slot: 0)
    public static let isActive = AttributeKey<Item, Bool>("isActive", slot: 1)
    public static let name = AttributeKey<Item, String?>("name", slot: 2)
    public static let price = AttributeKey<Item, Double>("price", slot: 3)
    public static let quantity = AttributeKey<Item, Int64>("quantity", slot: 4)

    // The values once loaded, in slot order, which `visitStoredAttributes` walks.
    @exclusivity(unchecked) private var _added: CompactOptional<Date> = nil
    @exclusivity(unchecked) private var _isActive: Bool?
    @exclusivity(unchecked) private var _name: String?
    @exclusivity(unchecked) private var _price: CompactOptional<Double> = nil
    @exclusivity(unchecked) private var _quantity: CompactOptional<Int64> = nil

    public override class var generatedModel: ManagedObjectModel? { StoreFixtures.model }

    public override func visitStoredAttributes(_ visitor: inout StoredAttributeVisitor) {
        visitor.visit(&_added)
        visitor.visit(&_isActive)
        visitor.visit(&_name)
        visitor.visit(&_price)
        visitor.visit(&_quantity)
    }
}

/// The model, the store files and the values every contender writes and reads.
public enum StoreFixtures {
    public static let objectCount = 100_000

    public static let modelXML = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Item" representedClassName="Item">
                <attribute name="added" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="isActive" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="price" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                <attribute name="quantity" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
            </entity>
        </model>
        """

    public static let model: ManagedObjectModel = {
        let parsed = try! ModelParser.parse(Array(modelXML.utf8), path: "Item.xcdatamodel/contents")
        return ManagedObjectModel(model: parsed.model, classes: [Item.self])
    }()

    /// The values of object `index`.
    public static func name(_ index: Int) -> String { "Item number \(index)" }
    public static func price(_ index: Int) -> Double { Double(index) * 0.25 }
    public static func added(_ index: Int) -> Date { Date(timeIntervalSinceReferenceDate: Double(index)) }

    /// A path for a new store file in a fresh temporary directory.
    public static func newStoreURL() -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("StoreBenchmarks-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("Items.sqlite")
    }

    /// A new store file with the schema and bookkeeping rows, and no objects.
    public static func emptyStoreURL() throws -> URL {
        let url = newStoreURL()
        _ = try PersistentStore(url: url, model: model)
        return url
    }

    /// A new store file holding `objectCount` items, written by DataStore.
    public static func filledStoreURL() throws -> URL {
        let url = newStoreURL()
        let store = try PersistentStore(url: url, model: model)
        try insertAll(into: store.newContext())
        return url
    }

    /// Inserts `objectCount` items through the generated-style class and saves once.
    public static func insertAll(into context: ObjectContext) throws {
        for index in 0..<objectCount {
            let item = Item(context: context)
            item.name = name(index)
            item.price = price(index)
            item.quantity = Int64(index)
            item.isActive = index % 2 == 0
            item.added = added(index)
        }
        try context.save()
    }
}
