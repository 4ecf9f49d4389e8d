/// A `<relationship>` of an entity.
public struct Relationship: Sendable, Equatable, Encodable {
    /// What happens to the destination objects when the source object is deleted.
    public enum DeleteRule: String, Sendable, Equatable, CaseIterable, Encodable {
        case noAction = "No Action"
        case nullify = "Nullify"
        case cascade = "Cascade"
        case deny = "Deny"

        /// Core Data's `NSDeleteRule` raw value.
        public var code: Int {
            switch self {
            case .noAction: 0
            case .nullify: 1
            case .cascade: 2
            case .deny: 3
            }
        }
    }

    public var name: String
    /// `destinationEntity`.
    public var destinationEntityName: String
    /// `inverseName`; nil for a relationship without inverse.
    public var inverseName: String?
    /// `inverseEntity`; written together with `inverseName`.
    public var inverseEntityName: String?
    public var isToMany: Bool
    public var isOrdered: Bool
    /// `minCount` exactly as written (old Xcode wrote `1` on every to-one, and it enters the hash).
    public var minCount: Int?
    /// `maxCount` exactly as written (`1` on to-ones; on to-many only when bounded).
    public var maxCount: Int?
    public var deleteRule: DeleteRule
    public var isOptional: Bool
    public var isTransient: Bool
    public var isIndexed: Bool
    public var isSyncable: Bool
    public var elementID: String?
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var userInfo: UserInfo
    public var unknownXML: UnknownXML?
    public var location: SourceLocation

    public init(
        name: String,
        destinationEntityName: String,
        inverseName: String? = nil,
        inverseEntityName: String? = nil,
        isToMany: Bool = false,
        isOptional: Bool = true,
        location: SourceLocation
    ) {
        self.name = name
        self.destinationEntityName = destinationEntityName
        self.inverseName = inverseName
        self.inverseEntityName = inverseEntityName
        self.isToMany = isToMany
        isOrdered = false
        deleteRule = .nullify
        self.isOptional = isOptional
        isTransient = false
        isIndexed = false
        isSyncable = false
        userInfo = UserInfo()
        self.location = location
    }

    /// Whether the relationship is stored in the persistent store: not transient.
    public var isPersistent: Bool { !isTransient }

    /// Whether the relationship is to-one.
    public var isToOne: Bool { !isToMany }
}
