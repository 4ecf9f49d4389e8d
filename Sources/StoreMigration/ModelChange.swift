import DataModel

/// One difference between two versions of a model, and whether a migration can infer what to do
/// with the store's data.
public struct ModelChange: Sendable, Hashable, Encodable, CustomStringConvertible {
    /// What changed.
    public enum Kind: String, Sendable, Hashable, Encodable {
        case entityAdded, entityRemoved, entityRenamed
        /// The entity moved into, out of, or within an inheritance hierarchy.
        case parentChanged
        case becameAbstract, becameConcrete
        /// Two entities that were in different hierarchies share one now.
        case hierarchiesMerged
        case attributeAdded, attributeRemoved, attributeRenamed, attributeTypeChanged
        case attributeBecameRequired, attributeBecameOptional, attributeBecameStored, attributeBecameTransient
        case derivationChanged, externalStorageChanged
        case relationshipAdded, relationshipRemoved, relationshipRenamed, relationshipDestinationChanged
        case relationshipBecameToMany, relationshipBecameToOne, relationshipOrderChanged, relationshipInverseChanged
        case relationshipBecameStored, relationshipBecameTransient
        case indexesChanged, constraintsChanged
    }

    /// Whether a lightweight migration handles the change.
    public enum Inference: Sendable, Hashable, Encodable {
        /// Always: the migration knows what to do with every row.
        case inferred
        /// Only when the store's data allows it (for instance, no row lacks a newly required value);
        /// the migration checks and fails, changing nothing, when it does not.
        case inferredIfData(String)
        /// Never: the change needs a custom stage (or a new model version between).
        case notInferred(String)

        public var isBlocking: Bool {
            if case .notInferred = self { true } else { false }
        }
    }

    public var kind: Kind
    /// The entity, named as the destination names it (the source, for an entity removed).
    public var entity: String
    public var property: String?
    /// What changed, in words: `optional → required; empty values get the default "Anonymous"`.
    public var detail: String
    public var inference: Inference
    /// Where in the model: the destination's element, or the source's for what was removed.
    public var location: SourceLocation

    /// `Entity.property` or `Entity`.
    public var subject: String {
        property.map { "\(entity).\($0)" } ?? entity
    }

    public var description: String {
        switch inference {
        case .inferred: "\(subject): \(detail)"
        case .inferredIfData(let condition): "\(subject): \(detail) (only if \(condition))"
        case .notInferred(let reason): "\(subject): \(detail): \(reason)"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case kind, entity, property, detail, inference, condition, reason, location
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(entity, forKey: .entity)
        try container.encodeIfPresent(property, forKey: .property)
        try container.encode(detail, forKey: .detail)
        switch inference {
        case .inferred:
            try container.encode("inferred", forKey: .inference)
        case .inferredIfData(let condition):
            try container.encode("inferred if data allows", forKey: .inference)
            try container.encode(condition, forKey: .condition)
        case .notInferred(let reason):
            try container.encode("not inferred", forKey: .inference)
            try container.encode(reason, forKey: .reason)
        }
        try container.encode(location.description, forKey: .location)
    }
}
