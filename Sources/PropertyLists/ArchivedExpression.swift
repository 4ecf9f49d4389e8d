import Foundation

/// An `NSExpression` as `NSKeyedArchiver` keeps it (a mapping model's value expressions), written
/// back in the predicate language's syntax: `$source.title`, `FUNCTION($entityPolicy,
/// "stringIdForIntId:", $source.id)`, `"com.example"`, `YES`.
package enum ArchivedExpression {
    /// Why an archived expression could not be written as text.
    package struct Unsupported: Error, CustomStringConvertible {
        package var description: String
    }

    /// How deep expressions may nest: a damaged archive may make one contain itself.
    package static let depthLimit = 64

    package static func text(of value: ArchivedValue, depth: Int = 0) throws -> String {
        guard depth < depthLimit else { throw Unsupported(description: "expressions nest more than \(depthLimit) deep") }
        guard let object = value.object else { throw Unsupported(description: "the archive holds no expression object") }
        switch object.className {
        case "NSConstantValueExpression":
            if let className = try object.value(forKey: "NSConstantValueClassName").string { return "CLASS(\(className))" }
            return try constant(object.value(forKey: "NSConstantValue"), depth: depth + 1)
        case "NSSelfExpression":
            return "SELF"
        case "NSVariableExpression":
            guard let name = try object.value(forKey: "NSVariable").string else { throw Unsupported(description: "a variable without a name") }
            return "$" + name
        case "NSKeyPathSpecifierExpression":
            guard let path = try object.value(forKey: "NSKeyPath").string else { throw Unsupported(description: "a key path without keys") }
            return path
        case "NSKeyPathExpression", "NSFunctionExpression":
            return try function(object, depth: depth + 1)
        case "NSAggregateExpression":
            let elements = try object.value(forKey: "NSCollection").object?.elements() ?? []
            return "{" + (try elements.map { try text(of: $0, depth: depth + 1) }).joined(separator: ", ") + "}"
        default:
            throw Unsupported(description: "expressions of class \(object.className) are not read")
        }
    }

    /// A key path from its operand (`$source.title`, or `title` from `SELF`), or `FUNCTION(…)`.
    private static func function(_ object: ArchivedObject, depth: Int) throws -> String {
        let operand = try text(of: object.value(forKey: "NSOperand"), depth: depth)
        let selector = try object.value(forKey: "NSSelectorName").string ?? ""
        let arguments = try object.value(forKey: "NSArguments").object?.elements().map { try text(of: $0, depth: depth) } ?? []
        if selector == "valueForKeyPath:" || selector == "valueForKey:", arguments.count == 1 {
            return operand == "SELF" ? arguments[0] : "\(operand).\(arguments[0])"
        }
        if try object.value(forKey: "NSOperand").object?.value(forKey: "NSConstantValueClassName").string == "_NSPredicateUtilities" {
            // An operator between its operands, parenthesised as a whole: `($source.price * 2)`.
            if arguments.count == 2, let symbol = infixOperators[selector] { return "(\(arguments[0]) \(symbol) \(arguments[1]))" }
            // A built-in function: `count:(pages)`, `now()`.
            return selector + "(" + arguments.joined(separator: ", ") + ")"
        }
        return "FUNCTION(" + ([operand, quoted(selector)] + arguments).joined(separator: ", ") + ")"
    }

    /// The built-in functions the predicate language writes as operators, by selector.
    private static let infixOperators = [
        "add:to:": "+", "from:subtract:": "-", "multiply:by:": "*", "divide:by:": "/", "raise:toPower:": "**",
        "bitwiseAnd:with:": "&", "bitwiseOr:with:": "|", "bitwiseXor:with:": "^", "leftshift:by:": "<<", "rightshift:by:": ">>",
    ]

    private static func constant(_ value: ArchivedValue, depth: Int) throws -> String {
        guard depth < depthLimit else { throw Unsupported(description: "constants nest more than \(depthLimit) deep") }
        switch value {
        case .null: return "nil"
        case .string(let string): return quoted(string)
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .boolean(let boolean): return boolean ? "YES" : "NO"
        case .object(let object) where object.className.hasSuffix("String"):
            return quoted(value.string ?? "")
        case .object(let object) where object.classNames.contains("NSArray") || object.classNames.contains("NSSet"):
            return "{" + (try object.elements().map { try constant($0, depth: depth + 1) }).joined(separator: ", ") + "}"
        default:
            throw Unsupported(description: "a constant of this kind is not read")
        }
    }

    /// `text` as a double-quoted literal of the predicate language.
    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
