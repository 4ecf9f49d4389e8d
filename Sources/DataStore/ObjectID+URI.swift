import Foundation

extension PersistentStore {
    /// The ID a URI names (`ObjectID.uriRepresentation`), as Core Data's
    /// `managedObjectID(forURIRepresentation:)` reads it: `nil` for a URI of another store (its
    /// UUID), of an entity this model lacks, of an object never saved (`t…`, which only its context
    /// knows), or for anything else. The row need not exist: `context.existingObject(with:)` tells.
    public func managedObjectID(forURIRepresentation uri: URL) -> ObjectID? {
        guard uri.scheme == "x-coredata", uri.host == identifier else { return nil }
        let components = uri.path.split(separator: "/", omittingEmptySubsequences: false)
        guard components.count == 3, components[0].isEmpty, let entity = entity(named: String(components[1])),
              components[2].first == "p", let key = Int64(components[2].dropFirst()), key > 0 else { return nil }
        return objectID(key: .permanent(key), entityNumber: entity.number)
    }
}

extension CodingUserInfoKey {
    /// The `PersistentStore` that decodes `ObjectID`s, or the `PersistentStoreCoordinator` of
    /// several: set it in a decoder's `userInfo`.
    public static let persistentStore = CodingUserInfoKey(rawValue: "DataStore.persistentStore")!
}

/// An ID encodes as its URI, and decodes with the store given in the decoder's
/// `userInfo[.persistentStore]`, which must be the store that wrote it or a coordinator holding
/// it — as apps keep an ID in state restoration or a notification's payload.
///
///     let data = try JSONEncoder().encode(note.objectID)
///     let decoder = JSONDecoder()
///     decoder.userInfo[.persistentStore] = store
///     let id = try decoder.decode(ObjectID.self, from: data)
extension ObjectID: Codable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(uriRepresentation)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let uri = try container.decode(URL.self)
        let reader = decoder.userInfo[.persistentStore]
        let id: ObjectID?
        if let store = reader as? PersistentStore {
            id = store.managedObjectID(forURIRepresentation: uri)
        } else if let coordinator = reader as? PersistentStoreCoordinator {
            id = coordinator.managedObjectID(forURIRepresentation: uri)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "decoding an ObjectID needs its store in the decoder's userInfo[.persistentStore]")
        }
        guard let id else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(uri) names no saved object of this store")
        }
        self = id
    }
}
