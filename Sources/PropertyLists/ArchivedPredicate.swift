/// An `NSPredicate` as `NSKeyedArchiver` keeps it (the predicates of a compiled model's fetched
/// properties and fetch request templates), written back in the predicate language's syntax:
/// `authorAlias == $FETCH_SOURCE.alias AND comment CONTAINS[c] $FETCHED_PROPERTY.userInfo.search`.
package enum ArchivedPredicate {
    package static func text(of value: ArchivedValue, depth: Int = 0) throws -> String {
        guard depth < ArchivedExpression.depthLimit else {
            throw ArchivedExpression.Unsupported(description: "predicates nest more than \(ArchivedExpression.depthLimit) deep")
        }
        guard let object = value.object else { throw ArchivedExpression.Unsupported(description: "the archive holds no predicate object") }
        switch object.className {
        case "NSTruePredicate": return "TRUEPREDICATE"
        case "NSFalsePredicate": return "FALSEPREDICATE"
        case "NSCompoundPredicate": return try compound(object, depth: depth + 1)
        case "NSComparisonPredicate": return try comparison(object, depth: depth + 1)
        default: throw ArchivedExpression.Unsupported(description: "predicates of class \(object.className) are not read")
        }
    }

    /// `NOT p`, or subpredicates joined by `AND` or `OR`; a compound inside another is parenthesized.
    private static func compound(_ object: ArchivedObject, depth: Int) throws -> String {
        let subpredicates = try object.value(forKey: "NSSubpredicates").object?.elements() ?? []
        let parts = try subpredicates.map { value in
            let text = try text(of: value, depth: depth)
            return value.object?.className == "NSCompoundPredicate" ? "(" + text + ")" : text
        }
        switch try integer(object, "NSCompoundPredicateType") {
        case 0:
            guard parts.count == 1 else { throw ArchivedExpression.Unsupported(description: "a NOT predicate of \(parts.count) parts") }
            return "NOT " + parts[0]
        case 1: return parts.isEmpty ? "TRUEPREDICATE" : parts.joined(separator: " AND ")
        case 2: return parts.isEmpty ? "FALSEPREDICATE" : parts.joined(separator: " OR ")
        case let type: throw ArchivedExpression.Unsupported(description: "compound predicate type \(type)")
        }
    }

    /// `[ANY|ALL ]left OP[options] right`, the operator and its options read from the operator object.
    private static func comparison(_ object: ArchivedObject, depth: Int) throws -> String {
        guard let operation = try object.value(forKey: "NSPredicateOperator").object else {
            throw ArchivedExpression.Unsupported(description: "a comparison without an operator")
        }
        let type = try integer(operation, "NSOperatorType")
        guard let symbol = operators[type] else { throw ArchivedExpression.Unsupported(description: "predicate operator type \(type)") }
        let modifier = switch try integer(operation, "NSModifier") {
        case 1: "ALL "
        case 2: "ANY "
        default: ""
        }
        // Case and diacritic insensitivity are kept as `NSOptions` or, by some operators, `NSFlags`.
        let options = try integer(operation, "NSOptions") | integer(operation, "NSFlags")
        let flags = (options & 1 != 0 ? "c" : "") + (options & 2 != 0 ? "d" : "") + (options & 4 != 0 ? "n" : "")
        let left = try ArchivedExpression.text(of: object.value(forKey: "NSLeftExpression"), depth: depth)
        let right = try ArchivedExpression.text(of: object.value(forKey: "NSRightExpression"), depth: depth)
        return modifier + left + " " + symbol + (flags.isEmpty ? "" : "[" + flags + "]") + " " + right
    }

    /// `NSPredicateOperatorType`'s values.
    private static let operators: [Int: String] = [
        0: "<", 1: "<=", 2: ">", 3: ">=", 4: "==", 5: "!=", 6: "MATCHES", 7: "LIKE", 8: "BEGINSWITH", 9: "ENDSWITH", 10: "IN",
        99: "CONTAINS", 100: "BETWEEN",
    ]

    /// An operator's or compound's integer field; a Boolean one as 0 or 1.
    private static func integer(_ object: ArchivedObject, _ key: String) throws -> Int {
        if case .boolean(let flag) = try object.value(forKey: key) { return flag ? 1 : 0 }
        return try object.integer(forKey: key) ?? 0
    }
}
