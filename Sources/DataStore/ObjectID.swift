import Foundation

/// The identity of an object in a store: its entity and its primary key (`Z_PK`), or a temporary key
/// until the object is first saved.
///
/// `Sendable` and `Hashable`, so it is what crosses from one context or task to another: pass the
/// ID, then ask the other context for `object(with:)`.
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    /// The store's UUID (`Z_METADATA.Z_UUID`).
    public let storeIdentifier: String
    public let entityName: String
    /// `Z_ENT`.
    public let entityNumber: Int
    let key: Key

    enum Key: Hashable, Sendable {
        /// A saved row's `Z_PK`.
        case permanent(Int64)
        /// An object inserted in a context and not saved yet.
        case temporary(UInt64)
    }

    init(store: String, entityName: String, entityNumber: Int, key: Key) {
        storeIdentifier = store
        self.entityName = entityName
        self.entityNumber = entityNumber
        self.key = key
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
}
