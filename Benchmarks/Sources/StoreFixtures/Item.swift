import DataModel
import DataModelParser
import DataStore
import Foundation

/// The benchmarks' entity: five attributes of the common types, as generated code declares it.
public final class Item: ManagedObject {
    public override class var entityName: String { "Item" }

    public static let added = AttributeKey<Item, Date?>("added", slot: 0)
    public static let isActive = AttributeKey<Item, Bool>("isActive", slot: 1)
    public static let name = AttributeKey<Item, String?>("name", slot: 2)
    public static let price = AttributeKey<Item, Double>("price", slot: 3)
    public static let quantity = AttributeKey<Item, Int64>("quantity", slot: 4)

    public var added: Date? {
        get { valuesAreInProperties ? _added : self[Item.added] }
        set {
            guard canSetPropertyValue(atSlot: 0) else { self[Item.added] = newValue; return }
            if _added != newValue {
                willSetPropertyValue()
                _added = newValue
                didSetPropertyValue()
            }
        }
    }

    public var isActive: Bool {
        get { valuesAreInProperties ? _isActive ?? Bool.unsetValue : self[Item.isActive] }
        set {
            guard canSetPropertyValue(atSlot: 1) else { self[Item.isActive] = newValue; return }
            if _isActive != newValue {
                willSetPropertyValue()
                _isActive = newValue
                didSetPropertyValue()
            }
        }
    }

    public var name: String? {
        get { valuesAreInProperties ? _name : self[Item.name] }
        set {
            guard canSetPropertyValue(atSlot: 2) else { self[Item.name] = newValue; return }
            if _name != newValue {
                willSetPropertyValue()
                _name = newValue
                didSetPropertyValue()
            }
        }
    }

    public var price: Double {
        get { valuesAreInProperties ? _price ?? Double.unsetValue : self[Item.price] }
        set {
            guard canSetPropertyValue(atSlot: 3) else { self[Item.price] = newValue; return }
            if _price != newValue {
                willSetPropertyValue()
                _price = newValue
                didSetPropertyValue()
            }
        }
    }

    public var quantity: Int64 {
        get { valuesAreInProperties ? _quantity ?? Int64.unsetValue : self[Item.quantity] }
        set {
            guard canSetPropertyValue(atSlot: 4) else { self[Item.quantity] = newValue; return }
            if _quantity != newValue {
                willSetPropertyValue()
                _quantity = newValue
                didSetPropertyValue()
            }
        }
    }

    // The attribute values, in stored properties the runtime reads rows into and reaches by slot.
    @exclusivity(unchecked) private var _added: Date?
    @exclusivity(unchecked) private var _isActive: Bool?
    @exclusivity(unchecked) private var _name: String?
    @exclusivity(unchecked) private var _price: Double?
    @exclusivity(unchecked) private var _quantity: Int64?

    public override class var propertyStoredAttributes: [String] {
        super.propertyStoredAttributes + [
            "added",
            "isActive",
            "name",
            "price",
            "quantity",
        ]
    }

    public override func readAttributes(from row: inout StoreRow) {
        super.readAttributes(from: &row)
        _added = row.date(0)
        _isActive = row.bool(1)
        _name = row.string(2)
        _price = row.double(3)
        _quantity = row.integer(4)
    }

    public override func storedAttributeValue(atSlot slot: Int) -> AttributeValue {
        switch slot {
        case 0: AttributeValue(stored: _added)
        case 1: AttributeValue(stored: _isActive)
        case 2: AttributeValue(stored: _name)
        case 3: AttributeValue(stored: _price)
        case 4: AttributeValue(stored: _quantity)
        default: super.storedAttributeValue(atSlot: slot)
        }
    }

    public override func storeAttributeValue(_ value: AttributeValue, atSlot slot: Int) -> Bool {
        switch slot {
        case 0: value.store(in: &_added)
        case 1: value.store(in: &_isActive)
        case 2: value.store(in: &_name)
        case 3: value.store(in: &_price)
        case 4: value.store(in: &_quantity)
        default: super.storeAttributeValue(value, atSlot: slot)
        }
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
