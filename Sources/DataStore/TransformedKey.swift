import Foundation

/// Turns values of a Transformable attribute into the bytes the store keeps and back — the
/// counterpart of Core Data's named `ValueTransformer`, for types that are not `Codable` or that
/// must keep an existing byte format.
///
///     struct RGBTransformer: ValueTransforming {
///         func encode(_ color: RGB) throws -> Data { Data([color.red, color.green, color.blue]) }
///         func decode(_ data: Data) throws -> RGB { … }
///     }
public protocol ValueTransforming: Sendable {
    associatedtype Value
    func encode(_ value: Value) throws -> Data
    func decode(_ data: Data) throws -> Value
}

/// A typed Transformable attribute stored through a `ValueTransforming` transformer. Generated code
/// names the transformer's type (from the model's `valueTransformerName`), so a missing
/// transformer is a compile error rather than a lookup that fails at run time.
public struct TransformedKey<Root: ManagedObject, Transformer: ValueTransforming>: Sendable {
    public let name: String
    public let slot: Int
    public let transformer: Transformer

    public init(_ name: String, slot: Int, transformer: Transformer) {
        self.name = name
        self.slot = slot
        self.transformer = transformer
    }
}

extension ManagedObject {
    /// The decoded value, or `nil` when unset or when the transformer cannot decode the bytes.
    public subscript<Root, Transformer>(key: TransformedKey<Root, Transformer>) -> Transformer.Value? {
        get {
            guard let slot = attributeSlot(key.name, key.slot), case .data(let data) = attributeValue(atSlot: slot) else { return nil }
            return try? key.transformer.decode(data)
        }
        set {
            guard let slot = slotForWriting(attributeSlot(key.name, key.slot), key.name) else { return }
            guard let newValue else { return setAttributeValue(.null, atSlot: slot) }
            do {
                setAttributeValue(.data(try key.transformer.encode(newValue)), atSlot: slot)
            } catch {
                // The save reports it; the value is never silently dropped.
                context?.recordMisuse(.unencodableValue(entity: entity.name, property: key.name, reason: "\(error)"))
            }
        }
    }
}
