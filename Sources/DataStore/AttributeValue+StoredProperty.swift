import Foundation

/// The conversions between values and the stored properties generated classes keep them in: one
/// property per attribute, of the optional payload type of the attribute type's case (`Int64?` for
/// every integer width, `Double?` for Double and Float, `Data?` for Binary and Transformable), or
/// `AttributeValue?` where no one case fits (composites).
extension AttributeValue {
    public init(stored: Int64?) { self = stored.map(AttributeValue.integer) ?? .null }
    public init(stored: Double?) { self = stored.map(AttributeValue.double) ?? .null }
    public init(stored: Decimal?) { self = stored.map(AttributeValue.decimal) ?? .null }
    public init(stored: Bool?) { self = stored.map(AttributeValue.bool) ?? .null }
    public init(stored: String?) { self = stored.map(AttributeValue.string) ?? .null }
    public init(stored: Date?) { self = stored.map(AttributeValue.date) ?? .null }
    public init(stored: Data?) { self = stored.map(AttributeValue.data) ?? .null }
    public init(stored: UUID?) { self = stored.map(AttributeValue.uuid) ?? .null }
    public init(stored: URL?) { self = stored.map(AttributeValue.url) ?? .null }
    public init(stored: AttributeValue?) { self = stored ?? .null }

    // Each stores the value in `property` (`nil` for `null`); `false`, storing nothing, when the
    // value is of another case.
    public func store(in property: inout Int64?) -> Bool { store(in: &property) { if case .integer(let value) = $0 { value } else { nil } } }
    public func store(in property: inout Double?) -> Bool { store(in: &property) { if case .double(let value) = $0 { value } else { nil } } }
    public func store(in property: inout Decimal?) -> Bool { store(in: &property) { if case .decimal(let value) = $0 { value } else { nil } } }
    public func store(in property: inout Bool?) -> Bool { store(in: &property) { if case .bool(let value) = $0 { value } else { nil } } }
    public func store(in property: inout String?) -> Bool { store(in: &property) { if case .string(let value) = $0 { value } else { nil } } }
    public func store(in property: inout Date?) -> Bool { store(in: &property) { if case .date(let value) = $0 { value } else { nil } } }
    public func store(in property: inout Data?) -> Bool { store(in: &property) { if case .data(let value) = $0 { value } else { nil } } }
    public func store(in property: inout UUID?) -> Bool { store(in: &property) { if case .uuid(let value) = $0 { value } else { nil } } }
    public func store(in property: inout URL?) -> Bool { store(in: &property) { if case .url(let value) = $0 { value } else { nil } } }

    public func store(in property: inout AttributeValue?) -> Bool { store(in: &property) { $0 } }

    @inline(__always)
    private func store<Payload>(in property: inout Payload?, _ payload: (AttributeValue) -> Payload?) -> Bool {
        if case .null = self {
            property = nil
            return true
        }
        guard let value = payload(self) else { return false }
        property = value
        return true
    }
}
