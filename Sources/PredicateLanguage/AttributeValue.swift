import Foundation

/// The value of an attribute, typed by the attribute's model type — no `Any` boxing.
///
/// Integers of every width are `integer`, Double and Float are `double`; `data` holds Binary and
/// the bytes of Transformable attributes. `null` is a missing value. A composite attribute's value
/// is `composite`: its members by name, nested composites as nested `composite` values, members
/// without a value left out.
public enum AttributeValue: Hashable, Sendable, CustomStringConvertible {
    case null
    case integer(Int64)
    case double(Double)
    case decimal(Decimal)
    case bool(Bool)
    case string(String)
    case date(Date)
    case data(Data)
    case uuid(UUID)
    case url(URL)
    case composite([String: AttributeValue])

    public var isNull: Bool {
        if case .null = self { true } else { false }
    }

    /// The value as Foundation would hand it to key-value coding: `Int64`, `Double`, `Decimal`,
    /// `Bool`, `String`, `Date`, `Data`, `UUID`, `URL`, `[String: Any]` for a composite, or `nil`.
    public var anyValue: Any? {
        switch self {
        case .null: nil
        case .integer(let value): value
        case .double(let value): value
        case .decimal(let value): value
        case .bool(let value): value
        case .string(let value): value
        case .date(let value): value
        case .data(let value): value
        case .uuid(let value): value
        case .url(let value): value
        case .composite(let members): members.compactMapValues(\.anyValue)
        }
    }

    /// The value of the composite member at `path` (`["position", "x"]`); the value itself for an
    /// empty path, `null` where a composite along the path has no value.
    public func member(at path: some Collection<String>) -> AttributeValue {
        guard let name = path.first else { return self }
        guard case .composite(let members) = self, let member = members[name] else { return .null }
        return member.member(at: path.dropFirst())
    }

    public var description: String {
        switch self {
        case .null: "nil"
        case .integer(let value): String(value)
        case .double(let value): String(value)
        case .decimal(let value): "\(value)"
        case .bool(let value): value ? "true" : "false"
        case .string(let value): value.debugDescription
        case .date(let value): value.formatted(.iso8601)
        case .data(let value): "<\(value.count) bytes>"
        case .uuid(let value): value.uuidString
        case .url(let value): value.absoluteString
        case .composite(let members):
            "{" + members.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}
