import DataModel

/// Composite attributes: one value made of named members, stored one column per leaf member
/// (`StoreSchema`'s `CompositeLayout`).
extension AttributeDescription {
    /// The member's own name (`x` for `shelfSpot.position.x`); the name of an entity's attribute.
    var memberName: String { memberPath.last ?? name }

    /// The member at `path` below this composite (`["position", "x"]`), or `nil`.
    func member(at path: some Collection<String>) -> AttributeDescription? {
        guard let first = path.first else { return self }
        return members.first { $0.memberName == first }?.member(at: path.dropFirst())
    }

    /// Whether the attribute has columns: its own, or its leaves' for a composite.
    var isStored: Bool { columnIndex != nil || !leaves.isEmpty }

    /// Calls `body` with each column of the attribute and the value `value` stores there: its own
    /// column, or each leaf's column with the leaf's member value.
    func forEachStoredColumn(of value: AttributeValue, _ body: (_ columnIndex: Int, _ stored: AttributeValue) -> Void) {
        if let columnIndex { return body(columnIndex, value) }
        for leaf in leaves {
            guard let columnIndex = leaf.columnIndex else { continue }
            body(columnIndex, value.member(at: leaf.memberPath.dropFirst(memberPath.count)))
        }
    }

    /// Makes the attribute a composite of `members`. Its default, a new object's value, is `nil`
    /// when optional, else its members' defaults (nested required composites included).
    mutating func setMembers(_ members: [AttributeDescription]) {
        self.members = members
        leaves = members.flatMap { $0.type == .composite ? $0.leaves : [$0] }
        var defaults: [String: AttributeValue] = [:]
        for member in members where !member.defaultValue.isNull { defaults[member.memberName] = member.defaultValue }
        defaultValue = isOptional ? .null : .composite(defaults)
    }

    /// A composite's value assembled from its leaves' values. An optional composite whose leaves
    /// are all missing has no value (as an optional nested composite); a required one is present,
    /// with the members that have values.
    func compositeValue(leafValue: (AttributeDescription) -> AttributeValue) -> AttributeValue {
        var values: [String: AttributeValue] = [:]
        for member in members {
            let value = member.type == .composite
                ? member.compositeValue(leafValue: leafValue)
                : member.columnIndex == nil ? .null : leafValue(member)
            if !value.isNull { values[member.memberName] = value }
        }
        return values.isEmpty && isOptional ? .null : .composite(values)
    }

    /// `value` as this composite's value: a `composite` whose every member is one of the
    /// composite's, converted to the member's type; members set to `null` are left out. `nil` when
    /// a member is unknown or cannot hold its value.
    func coercedComposite(_ value: AttributeValue) -> AttributeValue? {
        switch value {
        case .null: return .null
        case .composite(let values):
            var coerced: [String: AttributeValue] = [:]
            for (name, memberValue) in values {
                guard let member = members.first(where: { $0.memberName == name }),
                      let converted = member.coerced(memberValue) else { return nil }
                if !converted.isNull { coerced[name] = converted }
            }
            return .composite(coerced)
        default: return nil
        }
    }
}
