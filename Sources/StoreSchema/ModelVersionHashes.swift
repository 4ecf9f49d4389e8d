import DataModel
import PropertyLists

/// Core Data's model version hashes: one 32-byte hash per entity, which a store keeps in its metadata
/// (`NSStoreModelVersionHashes`) so that opening it with a changed model is detected.
///
/// A black-box reconstruction that equals the hashes Apple's framework wrote for every entity of the
/// stores we could test, composite and derived attributes included (see DataStore's compatibility
/// article for what is unverified: derivations other than a count, Decimal attributes, several
/// uniqueness constraints, nested composites). Two models with equal hashes are store-compatible; a differing hash names the
/// entity whose storage changed.
public struct ModelVersionHashes: Sendable, Equatable {
    /// The hash of every entity, by entity name.
    public var entityHashes: [String: [UInt8]]
    /// The hash of each entity with a derived attribute as releases of DataModelKit before it
    /// hashed derived attributes as Core Data does (as plain attributes): a store such a release
    /// wrote still counts as this model's (``entitiesDiffering(from:)``).
    public var earlierEntityHashes: [String: [UInt8]] = [:]

    public init(entityHashes: [String: [UInt8]]) {
        self.entityHashes = entityHashes
    }

    public init(model: Model) {
        entityHashes = Self.hashes(of: model, derivedAsAttributes: false)
        if model.entities.contains(where: { $0.attributes.contains(where: \.isDerived) }) {
            earlierEntityHashes = Self.hashes(of: model, derivedAsAttributes: true).filter { entityHashes[$0.key] != $0.value }
        }
    }

    private static func hashes(of model: Model, derivedAsAttributes: Bool) -> [String: [UInt8]] {
        var hasher = EntityHasher(model: model, derivedAsAttributes: derivedAsAttributes)
        var hashes: [String: [UInt8]] = [:]
        for entity in model.entities { hashes[entity.name] = hasher.hash(of: entity) }
        return hashes
    }

    /// Equal when the entity hashes are.
    public static func == (lhs: ModelVersionHashes, rhs: ModelVersionHashes) -> Bool {
        lhs.entityHashes == rhs.entityHashes
    }

    /// `NSStoreModelVersionHashesDigest`: SHA-512 over every entity's name and hash, in name order.
    public var digest: [UInt8] {
        SHA2.sha512(sortedEntries.flatMap { Array($0.key.utf8) + $0.value })
    }

    /// `NSStoreModelVersionChecksumKey`: SHA-256 over every entity's hash, in name order.
    public var checksum: [UInt8] {
        SHA2.sha256(sortedEntries.flatMap(\.value))
    }

    /// The names of entities whose hash differs between `self` and `other`, or that only one side has,
    /// in name order. A hash one side had by the earlier rules (``earlierEntityHashes``) counts as equal.
    public func entitiesDiffering(from other: ModelVersionHashes) -> [String] {
        Set(entityHashes.keys).union(other.entityHashes.keys)
            .filter { name in
                guard let mine = entityHashes[name], let theirs = other.entityHashes[name] else { return true }
                return mine != theirs && earlierEntityHashes[name] != theirs && other.earlierEntityHashes[name] != mine
            }
            .sorted(by: String.ordinalLess)
    }

    /// Entries ordered by a plain byte compare of the names, as Core Data orders them.
    private var sortedEntries: [(key: String, value: [UInt8])] {
        entityHashes.sorted { String.ordinalLess($0.key, $1.key) }
    }
}

/// Computes entity hashes, remembering those of superentities (an entity's hash includes its
/// parent's).
private struct EntityHasher {
    let model: Model
    /// Whether a derived attribute is hashed as a plain one, as releases before Core Data's rule did.
    let derivedAsAttributes: Bool
    var hashes: [String: [UInt8]] = [:]

    init(model: Model, derivedAsAttributes: Bool) {
        self.model = model
        self.derivedAsAttributes = derivedAsAttributes
    }

    mutating func hash(of entity: Entity) -> [UInt8] {
        if let known = hashes[entity.name] { return known }
        var input = Array(entity.name.utf8)
        input.append(entity.isAbstract ? 1 : 0)
        if let parentName = entity.parentName, let parent = model.entity(named: parentName),
           !model.parentChain(of: parent).contains(where: { $0.name == entity.name }) {
            input += hash(of: parent)
        }
        let properties = model.allProperties(of: entity)
            .filter(\.isPersistent)
            .sorted { String.ordinalLess($0.name, $1.name) }
        for property in properties { input += hash(of: property) }
        for constraint in entity.uniquenessConstraints {
            input += Array(constraint.properties.map(\.name).joined(separator: ".").utf8)
        }
        input += Array((entity.versionHashModifier ?? "").utf8)
        let result = SHA2.sha256(input)
        hashes[entity.name] = result
        return result
    }

    private func hash(of property: Property) -> [UInt8] {
        switch property {
        case .attribute(let attribute) where attribute.type == .composite:
            // Only the members count, each hashed as an attribute, in name order: not the
            // composite's own name, flags, type or modifier (found against two SwiftData stores,
            // 13 composites of 1 to 15 members; a nested composite is hashed the same way, unverified).
            let members = attribute.compositeName.flatMap(model.composite(named:))?.attributes ?? []
            return SHA2.sha256(members.sorted { String.ordinalLess($0.name, $1.name) }.flatMap { hash(of: .attribute($0)) })
        case .attribute(let attribute) where attribute.isDerived && !derivedAsAttributes:
            // Only the expression counts, as Core Data prints it (`count:(pages)` for
            // `pages.@count`): not the name, flags or type. Found on a store of framework 1344
            // (CoreDataPlus's `Book.pagesCount`); the other forms' printing is unverified.
            return SHA2.sha256(Array(Self.printed(derivation: attribute.derivationExpression ?? "").utf8))
        case .attribute(let attribute):
            var input = Self.base(attribute.name, attribute.isOptional, attribute.isTransient, attribute.versionHashModifier)
            input += Self.littleEndian(attribute.type.code)
            // One byte per storage flag that is set: external binary storage (found on a store of
            // framework 641) and preserving the value in history after deletion (4 entities of 3
            // stores). Whether an attribute with both hashes two bytes is unverified (no sample).
            if attribute.allowsExternalBinaryDataStorage { input.append(1) }
            if attribute.preservesValueInHistoryOnDeletion { input.append(1) }
            return SHA2.sha256(input)
        case .relationship(let relationship):
            var input = Self.base(relationship.name, relationship.isOptional, relationship.isTransient, relationship.versionHashModifier)
            input += Array(relationship.destinationEntityName.utf8)
            input += Array((relationship.inverseName ?? "").utf8)
            input += Self.littleEndian(Int32(truncatingIfNeeded: relationship.hashedMaxCount))
            input += Self.littleEndian(Int32(truncatingIfNeeded: relationship.hashedMinCount))
            // Found by black-box search against 6 entities in 3 Apple-written stores; the second
            // byte's meaning is unknown (zero in every sample).
            if relationship.isOrdered { input += [1, 0] }
            return SHA2.sha256(input)
        case .fetchedProperty:
            return []  // not persistent, so never asked for
        }
    }

    private static func base(_ name: String, _ isOptional: Bool, _ isTransient: Bool, _ modifier: String?) -> [UInt8] {
        var input = Array(name.utf8)
        input.append(isOptional ? 1 : 0)
        input.append(isTransient ? 1 : 0)
        input += Array((modifier ?? "").utf8)
        return SHA2.sha256(input)
    }

    /// A derivation as Core Data prints the expression it compiles from it: aggregates in their
    /// function form, the rest as written without spaces; text it cannot read, as it is.
    private static func printed(derivation text: String) -> String {
        switch DerivationExpression(parsing: text) {
        case .now?: "now()"
        case .text(let function, let keyPath)?: "\(function.rawValue):(\(keyPath.joined(separator: ".")))"
        case .value(let keyPath)?: keyPath.joined(separator: ".")
        case .count(let relationship)?: "count:(\(relationship))"
        case .sum(let relationship, let attribute)?: "sum:(\(relationship).\(attribute))"
        case nil: text
        }
    }

    private static func littleEndian(_ value: Int32) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian, Array.init)
    }
}

extension Relationship {
    /// The maximum count as the compiled model holds it: 1 for a to-one, 0 (unbounded) for a to-many
    /// without a limit.
    fileprivate var hashedMaxCount: Int { maxCount ?? (isToMany ? 0 : 1) }

    /// The minimum count as the compiled model holds it.
    fileprivate var hashedMinCount: Int { minCount ?? 0 }
}
