import Foundation

/// Value transformers by the names models give them (an attribute's `valueTransformerName`), as
/// Foundation's `ValueTransformer.setValueTransformer(_:forName:)` registers them. A predicate that
/// compares a transformable attribute with a constant runs the constant through the attribute's
/// transformer, as Core Data does, and compares the bytes:
///
///     ValueTransformers.setValueTransformer(ColorTransformer(), forName: "ColorTransformer")
///     try ObjectPredicate(format: "color == %@", "teal")      // "teal" encoded by ColorTransformer
///
/// Generated code names its transformers' types itself (`TransformedKey`); the registry is for
/// predicates, which name only the attribute.
public enum ValueTransformers {
    private static let registered = Locked<[String: any ValueTransforming]>([:])

    /// Registers `transformer` under `name`, or removes the one registered with `nil`.
    public static func setValueTransformer(_ transformer: (any ValueTransforming)?, forName name: String) {
        registered.withLock { $0[name] = transformer }
    }

    /// The transformer registered under `name`.
    public static func valueTransformer(forName name: String) -> (any ValueTransforming)? {
        registered.withLock { $0[name] }
    }

    /// The names Core Data gives its own archiving transformers: attributes that name one (or
    /// none) hold `Codable` values, stored as `TransformableKey` stores them.
    static let archivingNames: Set<String> = ["", "NSSecureUnarchiveFromData", "NSKeyedUnarchiveFromData", "NSSecureUnarchiveFromDataTransformer"]

    /// `value` as the attribute stores it: through its registered transformer. Data and `nil` are
    /// compared as they are.
    static func stored(_ value: AttributeValue, for attribute: AttributeDescription) throws(ContextError) -> AttributeValue {
        switch value {
        case .null, .data: return value
        default: break
        }
        let name = attribute.valueTransformerName ?? ""
        func fail(_ reason: String) -> ContextError {
            .invalidPredicate("\(PredicateValue.attribute(value)) cannot be compared with the transformable \(attribute.entityName).\(attribute.name): \(reason)")
        }
        if !archivingNames.contains(name) {
            guard let transformer = valueTransformer(forName: name) else {
                throw fail("its transformer '\(name)' is not registered (ValueTransformers.setValueTransformer(_:forName:))")
            }
            guard let data = try transforming(value.anyValue, with: transformer) else {
                throw fail("'\(name)' transforms \(type(of: transformer)) values, not this one")
            }
            return .data(data)
        }
        // A property list holds a collection at its top, never a lone value: no constant but data
        // can equal one (nor, in Core Data's own stores, the keyed archives its transformer writes).
        throw fail("it holds Codable values as property lists, which only their encoded data can equal")
    }

    /// `value` encoded by `transformer`, when it is of the transformer's type.
    private static func transforming<Transformer: ValueTransforming>(_ value: Any?, with transformer: Transformer) throws(ContextError) -> Data? {
        guard let typed = value as? Transformer.Value else { return nil }
        do {
            return try transformer.encode(typed)
        } catch {
            throw .invalidPredicate("the transformer of a predicate's constant failed: \(error)")
        }
    }
}
