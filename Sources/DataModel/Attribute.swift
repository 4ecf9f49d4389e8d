import Foundation

/// An `<attribute>` of an entity or a composite.
///
/// Values are kept as the model states them: numeric limits and defaults stay strings (their meaning
/// depends on the type, and the validator checks them), absent flags are `false`, absent texts `nil`.
public struct Attribute: Sendable, Equatable, Encodable {
    public var name: String
    public var type: AttributeType
    /// `optional="YES"`. Absent means required — Core Data's reading, not the API default.
    public var isOptional: Bool
    public var isTransient: Bool
    /// Legacy single-property index (`indexed="YES"`), from before fetch indexes.
    public var isIndexed: Bool
    public var isSyncable: Bool
    /// `derived="YES"`: the value is computed by the store from `derivationExpression`.
    public var isDerived: Bool
    public var derivationExpression: String?
    /// `defaultValueString`: the default as text (`0`, `0.0`, `NO`, a string…).
    public var defaultValue: String?
    /// `defaultDateTimeInterval`: a Date default in seconds since 2001-01-01 00:00:00 UTC.
    public var defaultDateTimeInterval: Double?
    /// A Binary Data or Transformable attribute's default, as the bytes its column holds: a Binary
    /// default's own bytes, a Transformable default object archived alone (what Core Data's
    /// archiving transformers store). Xcode's XML has no field for it; models made in code
    /// (SwiftData's `@Model` classes among them) give such defaults, and a store's model cache keeps them.
    public var defaultData: Data?
    /// `minValueString`: a numeric minimum, or a minimum length for strings and binary data.
    public var minValue: String?
    /// `maxValueString`: a numeric maximum, or a maximum length for strings and binary data.
    public var maxValue: String?
    /// `minDateTimeInterval`: earliest allowed date, seconds since 2001-01-01 UTC.
    public var minDateTimeInterval: Double?
    /// `maxDateTimeInterval`: latest allowed date, seconds since 2001-01-01 UTC.
    public var maxDateTimeInterval: Double?
    /// `regularExpressionString`: strings must match it.
    public var regularExpression: String?
    /// `usesScalarValueType`: `nil` when the model does not say.
    public var usesScalarValueType: Bool?
    public var valueTransformerName: String?
    public var customClassName: String?
    /// For `Composite` attributes, the name of the model-level `<composite>`.
    public var compositeName: String?
    public var allowsExternalBinaryDataStorage: Bool
    /// `spotlightIndexingEnabled`.
    public var isIndexedBySpotlight: Bool
    /// `storedInTruthFile` (deprecated `storedInExternalRecord`).
    public var isStoredInExternalRecord: Bool
    /// `preserveAfterDeletion`: the value survives in persistent-history tombstones.
    public var preservesValueInHistoryOnDeletion: Bool
    public var allowsCloudEncryption: Bool
    /// Renaming identifier used by migrations (`elementID`).
    public var elementID: String?
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var userInfo: UserInfo
    public var unknownXML: UnknownXML?
    public var location: SourceLocation

    public init(
        name: String,
        type: AttributeType,
        isOptional: Bool = false,
        isTransient: Bool = false,
        location: SourceLocation
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        isIndexed = false
        isSyncable = false
        isDerived = false
        allowsExternalBinaryDataStorage = false
        isIndexedBySpotlight = false
        isStoredInExternalRecord = false
        preservesValueInHistoryOnDeletion = false
        allowsCloudEncryption = false
        userInfo = UserInfo()
        self.location = location
    }

    /// Whether the value is stored in the persistent store (has a column): not transient.
    public var isPersistent: Bool { !isTransient }

    /// Whether the model gives a default value.
    public var hasDefaultValue: Bool { defaultValue != nil || defaultDateTimeInterval != nil || defaultData != nil }
}
