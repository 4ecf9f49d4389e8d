import DataModel
import PropertyLists
import Foundation

/// The metadata dictionary of a store (`Z_METADATA.Z_PLIST`): store type, model version hashes and
/// whatever keys apps added.
///
/// Kept as the whole dictionary, with typed accessors for the keys Core Data defines, so reading and
/// writing back a store's metadata loses nothing.
public struct StoreMetadata: Sendable, Equatable {
    public var entries: [String: PropertyListValue]

    public init(entries: [String: PropertyListValue]) {
        self.entries = entries
    }

    /// The metadata of a new store for `model`, with the keys Core Data writes.
    public init(model: Model) {
        let hashes = ModelVersionHashes(model: model)
        entries = [
            Key.storeType: .string("SQLite"),
            Key.versionHashes: .dictionary(hashes.entityHashes.mapValues(PropertyListValue.data)),
            Key.versionHashesVersion: .integer(3),
            Key.versionHashesDigest: .string(Data(hashes.digest).base64EncodedString()),
            Key.versionChecksum: .string(Data(hashes.checksum).base64EncodedString()),
            Key.versionIdentifiers: .array([.string(model.header.userDefinedModelVersionIdentifier ?? "")]),
            // The framework release whose store layout and metadata this library reproduces.
            Key.frameworkVersion: .integer(FrameworkVersion.current.number),
            Key.autoVacuumLevel: .string("2"),
            Key.writer: .integer(1),
        ]
    }

    /// Reads the binary property list of a store's `Z_PLIST` column.
    public init(binaryPropertyList bytes: [UInt8]) throws(BinaryPropertyListError) {
        guard case .dictionary(let entries) = try BinaryPropertyList.decode(bytes) else {
            throw .malformed("the top object is not a dictionary")
        }
        self.entries = entries
    }

    /// The `bplist00` bytes for `Z_PLIST`; equal metadata always gives equal bytes.
    public var binaryPropertyList: [UInt8] {
        BinaryPropertyListWriter.encode(.dictionary(entries))
    }

    /// `NSStoreModelVersionHashes`: the hash of every entity of the model that wrote the store.
    public var versionHashes: ModelVersionHashes? {
        guard let hashes = entries[Key.versionHashes]?.dictionary else { return nil }
        return ModelVersionHashes(entityHashes: hashes.compactMapValues(\.data))
    }

    /// `NSStoreModelVersionIdentifiers`: the model's version identifiers.
    public var versionIdentifiers: [String] {
        entries[Key.versionIdentifiers]?.array?.compactMap(\.string) ?? []
    }

    /// `NSPersistenceFrameworkVersion`: the Core Data release that wrote the store.
    public var frameworkVersion: Int? {
        entries[Key.frameworkVersion]?.integer
    }

    /// The metadata keys Core Data defines, and the one this library adds.
    public enum Key {
        public static let storeType = "NSStoreType"
        public static let versionHashes = "NSStoreModelVersionHashes"
        public static let versionHashesVersion = "NSStoreModelVersionHashesVersion"
        public static let versionHashesDigest = "NSStoreModelVersionHashesDigest"
        public static let versionChecksum = "NSStoreModelVersionChecksumKey"
        public static let versionIdentifiers = "NSStoreModelVersionIdentifiers"
        public static let frameworkVersion = "NSPersistenceFrameworkVersion"
        public static let autoVacuumLevel = "_NSAutoVacuumLevel"
        /// Marks a store written by DataModelKit (apps may add their own keys; Core Data keeps them).
        public static let writer = "DataModelKitStoreVersion"
    }
}

extension StoreMetadata {
    /// The keys that say which model and framework wrote a store: a store's own values are kept
    /// when an app writes its metadata, so that the store still opens with its model.
    public static let modelKeys: Set<String> = [
        Key.storeType, Key.versionHashes, Key.versionHashesVersion, Key.versionHashesDigest, Key.versionChecksum,
        Key.versionIdentifiers, Key.frameworkVersion, Key.autoVacuumLevel, Key.writer,
    ]

    /// These entries, with `stored`'s values for the ``modelKeys``.
    public func withModelKeys(of stored: StoreMetadata) -> StoreMetadata {
        var entries = self.entries.filter { !Self.modelKeys.contains($0.key) }
        for key in Self.modelKeys { entries[key] = stored.entries[key] }
        return StoreMetadata(entries: entries)
    }
}
