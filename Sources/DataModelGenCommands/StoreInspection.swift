import DataStore
import Foundation

/// The objects of a store read through key-value coding, ready to print as JSON or as tables.
struct StoreInspection {
    /// One property's value, as `inspect` prints it.
    indirect enum Value {
        case null
        /// A JSON number, already in its text form.
        case number(String)
        case bool(Bool)
        case text(String)
        case list([String])
        /// A composite's members, by name.
        case object([(name: String, value: Value)])
    }

    struct EntityObjects {
        var entityName: String
        /// `objectID`, then the attributes, then the relationships, in slot order (inherited first).
        var keys: [String]
        /// One row of values per object, in `keys` order.
        var rows: [[Value]]
    }

    var entities: [EntityObjects]

    /// Reads every object of `entities`, each under its own entity, in primary-key order.
    init(store: PersistentStore, entities selected: [EntityDescription]) throws {
        let context = store.newContext()
        entities = try selected.map { entity in
            var request = FetchRequest<ManagedObject>(entityName: entity.name)
            request.includesSubentities = false
            return try Self.objects(of: entity, context.fetch(request))
        }
    }

    /// Reads the objects `request` fetches — its entity's and its subentities' — as one list under
    /// the entity, in the request's order, with the entity's properties.
    init(store: PersistentStore, request: FetchRequest<ManagedObject>) throws {
        let context = store.newContext()
        guard let entity = store.entity(named: request.entityName) else { throw ContextError.unknownEntity(request.entityName) }
        entities = [try Self.objects(of: entity, context.fetch(request))]
    }

    private static func objects(of entity: EntityDescription, _ objects: [ManagedObject]) throws -> EntityObjects {
        let keys = ["objectID"] + entity.attributes.map(\.name) + entity.relationships.map(\.name)
        let rows = try objects.map { object in
            var row: [Value] = [.text(object.objectID.description)]
            for attribute in entity.attributes {
                row.append(Self.value(of: try object.attributeValue(forKey: attribute.name)))
            }
            for relationship in entity.relationships {
                switch object.value(forKey: relationship.name) {
                case let destination as ManagedObject: row.append(.text(destination.objectID.description))
                case let ordered as [ManagedObject]: row.append(.list(ordered.map(\.objectID.description)))
                case let unordered as Set<ManagedObject>:
                    // Sets have no order; primary-key order makes the output the same on every run.
                    let ids = unordered.map(\.objectID).sorted { ($0.primaryKey ?? 0) < ($1.primaryKey ?? 0) }
                    row.append(.list(ids.map(\.description)))
                default: row.append(.null)
                }
            }
            return row
        }
        return EntityObjects(entityName: entity.name, keys: keys, rows: rows)
    }

    static func value(of attribute: AttributeValue) -> Value {
        switch attribute {
        case .null: .null
        case .integer(let value): .number(String(value))
        // JSON has no infinities or NaN; they print as text rather than being lost.
        case .double(let value): value.isFinite ? .number(String(value)) : .text(String(value))
        case .decimal(let value): value.isNaN ? .text("NaN") : .number("\(value)")
        case .bool(let value): .bool(value)
        case .string(let value): .text(value)
        case .date(let value): .text(value.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        case .data(let value): .text(value.base64EncodedString())
        case .uuid(let value): .text(value.uuidString)
        case .url(let value): .text(value.absoluteString)
        case .composite(let members): .object(members.sorted { $0.key < $1.key }.map { ($0.key, value(of: $0.value)) })
        }
    }
}
