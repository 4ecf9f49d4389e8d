import DataModel

/// A change of an attribute's type that a lightweight migration makes, as Core Data's inferred
/// mapping model accepts them: between numbers (integers of every width, Decimal, Double, Float),
/// and between Boolean and numbers. Binary and Transformable values, both bytes, move between the
/// two types when the new attribute's user info holds `NSMigrationAllowTypeTransformation`, as
/// Core Data asks. Every other change of type is refused: no mapping converts text, dates or
/// identifiers.
///
/// Values convert exactly or not at all: a value the new type cannot hold (a fraction or a number
/// out of range for an integer, a number other than 0 and 1 for a Boolean, a number beyond Float's
/// range) stops the migration, which names the objects that hold one. A real type keeps its own
/// precision: an integer beyond 2⁵³ becomes the nearest Double, a Double the nearest Float, as
/// reading them into those types would.
public struct TypeConversion: Sendable, Hashable {
    public let source: AttributeType
    public let destination: AttributeType
    let allowsBytes: Bool

    public init(from old: Attribute, to new: Attribute) {
        source = old.type
        destination = new.type
        allowsBytes = new.userInfo["NSMigrationAllowTypeTransformation"] != nil
            && !old.allowsExternalBinaryDataStorage && !new.allowsExternalBinaryDataStorage
    }

    private static let numbers: Set<AttributeType> = [.integer16, .integer32, .integer64, .decimal, .double, .float]

    /// Whether the migration converts the values at all.
    public var isInferred: Bool {
        let types: Set = [source, destination]
        if types.isSubset(of: Self.numbers) { return true }
        if types.contains(.boolean) { return types.subtracting([.boolean]).isSubset(of: Self.numbers) }
        return types == [.binary, .transformable] && allowsBytes
    }

    /// The bounds of the values the destination holds exactly, when some source values may fall
    /// outside them: an integer type's range (and whole numbers only, from a type with fractions),
    /// Boolean's 0 and 1, Float's finite range.
    public var destinationBounds: (lowest: Double, highest: Double, wholeNumbers: Bool)? {
        switch destination {
        case .boolean:
            return (0, 1, true)
        case .float:
            let greatest = Double(Float.greatestFiniteMagnitude)
            return source == .double || source == .decimal ? (-greatest, greatest, false) : nil
        default:
            guard let range = destination.integerRange else { return nil }
            if source.isReal { return (range.lowerBound, range.upperBound, true) }
            if source == .boolean || source.integerRange.map({ range.contains($0.lowerBound) && range.contains($0.upperBound) }) == true { return nil }
            return (range.lowerBound, range.upperBound, false)
        }
    }

    func inference(entity: String) -> ModelChange.Inference {
        guard isInferred else {
            return .notInferred("a lightweight migration converts only between numbers and Booleans; add an attribute of the new type "
                + "and copy the values in a custom stage")
        }
        guard destinationBounds != nil else { return .inferred }
        let holds = switch destination {
        case .boolean: "0 or 1"
        case .float: "within Float's range"
        default: "a whole number within \(destination.rawValue)'s range"
        }
        return .inferredIfData("every \(entity) value is \(holds)")
    }
}

extension AttributeType {
    /// The values of an integer type, as reals: Int64's upper bound is the greatest real below 2⁶³.
    var integerRange: ClosedRange<Double>? {
        switch self {
        case .integer16: -32_768...32_767
        case .integer32: -2_147_483_648...2_147_483_647
        case .integer64: -9_223_372_036_854_775_808...9_223_372_036_854_774_784
        default: nil
        }
    }

    /// Whether values of the type may have fractions.
    public var isReal: Bool {
        self == .double || self == .float || self == .decimal
    }
}
