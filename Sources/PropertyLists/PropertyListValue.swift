/// A property-list value, as Core Data keeps store metadata (`Z_METADATA.Z_PLIST`) and as keyed
/// archives hold their objects (a reference to an archived object reads as the dictionary
/// `["CF$UID": n]`, as XML property lists write it).
///
/// A closed set of cases rather than `Any`, so metadata is `Sendable`, comparable, and survives a
/// read–write round trip with nothing lost — app-defined keys included.
public enum PropertyListValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case real(Double)
    case boolean(Bool)
    /// Seconds since 2001-01-01 00:00:00 UTC, the property-list epoch.
    case date(Double)
    case data([UInt8])
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    public var string: String? { if case .string(let value) = self { value } else { nil } }
    public var integer: Int? { if case .integer(let value) = self { value } else { nil } }
    public var data: [UInt8]? { if case .data(let value) = self { value } else { nil } }
    public var array: [PropertyListValue]? { if case .array(let value) = self { value } else { nil } }
    public var dictionary: [String: PropertyListValue]? { if case .dictionary(let value) = self { value } else { nil } }
}
