/// The `userInfo` dictionary of an entity, property or fetched property, in document order.
///
/// Values are always strings in the XML; keys may repeat in hand-edited files, so this keeps every entry
/// and `subscript` answers with the last, as Core Data's dictionary would.
public struct UserInfo: Sendable, Equatable, Encodable {
    /// One `<entry key="…" value="…"/>`.
    public struct Entry: Sendable, Equatable, Encodable {
        public var key: String
        public var value: String
        public var location: SourceLocation

        public init(key: String, value: String, location: SourceLocation) {
            self.key = key
            self.value = value
            self.location = location
        }
    }

    public var entries: [Entry]

    public init(_ entries: [Entry] = []) { self.entries = entries }

    public var isEmpty: Bool { entries.isEmpty }

    /// The value for `key`, the last one when the key repeats.
    public subscript(key: String) -> String? {
        entries.last { $0.key == key }?.value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(entries)
    }
}
