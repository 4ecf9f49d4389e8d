import Foundation

/// The model's rules, checked on every inserted or changed object before anything is written.
extension ObjectContext {
    /// Notes in `deferredValidation` which of `objects` break a rule, and forgets `deleted`.
    func deferValidation(of objects: [ManagedObject], deleting deleted: [ManagedObject]) {
        for object in objects {
            var failures: [ValidationFailure] = []
            validate(object, into: &failures)
            deferredValidation?.note(object, failing: !failures.isEmpty)
        }
        for object in deleted { deferredValidation?.forget(object) }
    }

    func validate(_ objects: [ManagedObject]) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        for object in objects { validate(object, into: &failures) }
        return failures
    }

    /// Appends the rules `object` breaks to `failures`.
    func validate(_ object: ManagedObject, into failures: inout [ValidationFailure]) {
        validate(object, values: object.currentAttributeValues, into: &failures)
    }

    /// Appends the rules `object`, whose current attribute values are `values`, breaks to
    /// `failures`. The values are read once, by the caller: a generated class's properties are
    /// read by visiting them all.
    func validate(_ object: ManagedObject, values: AttributeValues, into failures: inout [ValidationFailure]) {
        let entity = object.entity
        let value = { (slot: Int) in slot < values.count ? values[slot] : .null }
        for rule in entity.attributeRules {
            if value(rule.slot).isNull {
                if rule.isRequired { failures.append(.missingValue(object.objectID, property: entity.attributes[rule.slot].name)) }
            } else if rule.hasValueRules {
                failures += validate(value(rule.slot), of: entity.attributes[rule.slot], in: object.objectID)
            }
        }
        if let refusal = store.dialect.u0000Refusal {
            // Text and composites only: the check runs for every saved object.
            for attribute in entity.attributes where (attribute.type == .string || attribute.type == .composite) && !attribute.isTransient {
                guard value(attribute.slot).holdsU0000 else { continue }
                failures.append(.unstorableValue(object.objectID, property: attribute.name, reason: refusal))
            }
        }
        for slot in entity.validatedRelationshipSlots {
            let relationship = entity.relationships[slot]
            if relationship.isToOne {
                if destinationID(of: object, slot: slot) == nil {
                    failures.append(.missingValue(object.objectID, property: relationship.name))
                }
                continue
            }
            let count = destinationIDs(of: object, slot: slot).count
            if !relationship.acceptsCount(count) {
                failures.append(.countOutOfRange(object.objectID, property: relationship.name, count: count))
            }
        }
    }

    func validate(_ value: AttributeValue, of attribute: borrowing AttributeDescription, in id: ObjectID) -> [ValidationFailure] {
        // A derived value is the store's to compute, after validation.
        if attribute.isDerived { return [] }
        if value.isNull {
            return attribute.isOptional ? [] : [.missingValue(id, property: attribute.name)]
        }
        var failures: [ValidationFailure] = []
        // A present composite's members follow their own rules (a required member must have a value).
        for member in attribute.members {
            failures += validate(value.member(at: CollectionOfOne(member.memberName)), of: member, in: id)
        }
        if attribute.minimum != nil || attribute.maximum != nil {
            // Bounds on a string, data or URL bound its length (counting characters takes a pass).
            let measured: AttributeValue = switch value {
            case .string(let text): .integer(Int64(text.count))
            case .data(let data): .integer(Int64(data.count))
            case .url(let url): .integer(Int64(url.absoluteString.count))
            default: value
            }
            if let minimum = attribute.minimum, Self.compare(measured, minimum) == .orderedAscending {
                failures.append(.outOfRange(id, property: attribute.name, value: "\(value)", bound: "minimum \(minimum)"))
            }
            if let maximum = attribute.maximum, Self.compare(measured, maximum) == .orderedDescending {
                failures.append(.outOfRange(id, property: attribute.name, value: "\(value)", bound: "maximum \(maximum)"))
            }
        }
        if let pattern = attribute.regularExpression, case .string(let text) = value, !matches(text, pattern) {
            failures.append(.patternMismatch(id, property: attribute.name, value: text.debugDescription))
        }
        return failures
    }

    /// Whether the whole of `text` matches `pattern` (Core Data anchors validation patterns).
    private func matches(_ text: String, _ pattern: String) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: "^(?:\(pattern))$") else { return true }
        let range = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, range: range) != nil
    }

    /// Orders two numbers or two dates; `nil` for anything else.
    static func compare(_ lhs: AttributeValue, _ rhs: AttributeValue) -> ComparisonResult? {
        func order<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
            a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
        }
        switch (lhs, rhs) {
        case (.date(let a), .date(let b)): return order(a, b)
        case (.integer(let a), .integer(let b)): return order(a, b)
        default:
            guard let a = Double(attributeValue: lhs), let b = Double(attributeValue: rhs) else { return nil }
            return order(a, b)
        }
    }
}

extension ObjectContext {
}

extension AttributeValue {
    /// Whether the value is text holding U+0000, or a composite with a member that is.
    var holdsU0000: Bool {
        switch self {
        case .string(let text): text.utf8.contains(0)
        case .composite(let members): members.values.contains(where: \.holdsU0000)
        default: false
        }
    }
}
