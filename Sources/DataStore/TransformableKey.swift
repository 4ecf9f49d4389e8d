import Foundation

/// A typed Transformable attribute whose value is a `Codable` Swift type, stored as a binary
/// property list (Core Data's default transformer archives with `NSKeyedArchiver`, which only
/// Foundation on Apple platforms reads; such bytes are kept untouched until the value is set).
public struct TransformableKey<Root: ManagedObject, Value: Codable>: Sendable {
    public let name: String
    public let slot: Int

    public init(_ name: String, slot: Int) {
        self.name = name
        self.slot = slot
    }
}

extension ManagedObject {
    /// The decoded value, or `nil` when unset or not decodable as `Value`.
    public subscript<Root, Value>(key: TransformableKey<Root, Value>) -> Value? {
        get {
            guard let slot = attributeSlot(key.name, key.slot), case .data(let data) = attributeValue(atSlot: slot) else { return nil }
            return try? PropertyListDecoder().decode(Value.self, from: data)
        }
        set {
            guard let slot = slotForWriting(attributeSlot(key.name, key.slot), key.name) else { return }
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .binary
            guard let newValue else { return setAttributeValue(.null, atSlot: slot) }
            do {
                setAttributeValue(.data(try encoder.encode(newValue)), atSlot: slot)
            } catch {
                context?.recordMisuse(.unencodableValue(entity: entity.name, property: key.name, reason: "\(error)"))
            }
        }
    }
}
