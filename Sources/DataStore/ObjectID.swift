import Foundation

/// The identity of an object in a store: its entity and its primary key (`Z_PK`), or a temporary key
/// until the object is first saved.
///
/// `Sendable` and `Hashable`, so it is what crosses from one context or task to another: pass the
/// ID, then ask the other context for `object(with:)`.
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    /// The store and entity, shared by every ID of the entity so that an ID is two words and
    /// copying one retains a single reference. It also holds the entity's description, so that an
    /// object keeps its entity through its ID, with no reference of its own to count.
    final class Scope: Sendable {
        let storeIdentifier: String
        let entityName: String
        let entityNumber: Int
        /// The description objects of this ID's entity have (for a number no entity has, from a
        /// damaged store, the store's first entity).
        let entity: EntityDescription

        init(storeIdentifier: String, entityName: String, entityNumber: Int, entity: EntityDescription) {
            self.storeIdentifier = storeIdentifier
            self.entityName = entityName
            self.entityNumber = entityNumber
            self.entity = entity
        }
    }

    let scope: Scope
    let key: Key

    enum Key: Hashable, Sendable {
        /// A saved row's `Z_PK`.
        case permanent(Int64)
        /// An object inserted in a context and not saved yet.
        case temporary(UInt64)
    }

    init(scope: Scope, key: Key) {
        self.scope = scope
        self.key = key
    }

    /// The store's UUID (`Z_METADATA.Z_UUID`).
    public var storeIdentifier: String { scope.storeIdentifier }
    public var entityName: String { scope.entityName }
    /// `Z_ENT`.
    public var entityNumber: Int { scope.entityNumber }

    public static func == (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs.key == rhs.key && (lhs.scope === rhs.scope
            || lhs.entityNumber == rhs.entityNumber && lhs.storeIdentifier == rhs.storeIdentifier)
    }

    /// Whether the object was never saved; its ID changes to a permanent one when it is.
    public var isTemporaryID: Bool {
        if case .temporary = key { true } else { false }
    }

    /// The row's `Z_PK`, or `nil` for a temporary ID.
    public var primaryKey: Int64? {
        if case .permanent(let value) = key { value } else { nil }
    }

    /// Core Data's URI form: `x-coredata://<store UUID>/<Entity>/p<Z_PK>` (`t<n>` when temporary).
    public var uriRepresentation: URL {
        let key = switch self.key {
        case .permanent(let value): "p\(value)"
        case .temporary(let value): "t\(value)"
        }
        var components = URLComponents()
        components.scheme = "x-coredata"
        components.host = storeIdentifier
        components.path = "/\(entityName)/\(key)"
        return components.url ?? URL(fileURLWithPath: "/")
    }

    public var description: String { uriRepresentation.absoluteString }

    /// The entity number and key: IDs in one context share their store, and hashing the store's
    /// UUID and the entity's name for every lookup would dominate fetching.
    public func hash(into hasher: inout Hasher) {
        row.hash(into: &hasher)
    }

    public func _rawHashValue(seed: Int) -> Int {
        row._rawHashValue(seed: seed)
    }

    /// The ID within its store.
    var row: Row { Row(entityNumber: entityNumber, key: key) }

    /// An ID without its store: plain data, so a context's registry hashes, compares and moves it
    /// without reference counting (a context holds the objects of one store).
    struct Row: Hashable {
        let entityNumber: Int
        let key: Key

        func hash(into hasher: inout Hasher) {
            hasher.combine(packed)
        }

        /// One word hashed, as `Int` hashes itself: the context's registry hashes an ID for every
        /// fetched row, and the general `Hasher` path costs several times more.
        func _rawHashValue(seed: Int) -> Int {
            packed._rawHashValue(seed: seed)
        }

        /// The key and entity number in one word (equal rows give equal words; the rare collision
        /// only costs an equality check).
        private var packed: Int {
            switch key {
            case .permanent(let value): Int(truncatingIfNeeded: value) &<< 10 ^ entityNumber
            case .temporary(let value): ~(Int(truncatingIfNeeded: value) &<< 10 ^ entityNumber)
            }
        }
    }
}
