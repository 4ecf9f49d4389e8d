import Foundation

/// Printing predicates back in the format syntax.
///
/// `description` reads back as the same predicate — `ObjectPredicate(format: p.description) == p`
/// for predicates whose constants have a literal form (numbers, strings, Booleans, dates, `nil`).
/// `predicateFormat` is Foundation's canonical text: the same, but for Booleans, which Foundation
/// prints as the numbers it keeps them as (`isRead == 1` for `isRead == YES`); they read back as
/// those numbers, equal to the Booleans in every comparison. Reals keep their `.0` (`price < 10.0`,
/// where Foundation prints `10`), since an integer would divide as an integer in arithmetic.
extension ObjectPredicate: CustomStringConvertible {
    public var description: String {
        switch self {
        case .constant(let value): value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .not(let predicate): "NOT \(predicate.operandFormat)"
        case .and(let terms): terms.map(\.operandFormat).joined(separator: " AND ")
        case .or(let terms): terms.map(\.operandFormat).joined(separator: " OR ")
        case .comparison(let comparison): comparison.description
        }
    }

    /// Foundation's canonical text of the predicate (`NSPredicate.predicateFormat`).
    public var predicateFormat: String {
        mappingConstants(\.withBooleansAsNumbers).description
    }

    /// Compound predicates in parentheses, so that printing keeps the structure.
    private var operandFormat: String {
        switch self {
        case .and, .or: "(\(description))"
        default: description
        }
    }

    /// The predicate with `transform` applied to every constant.
    func mappingConstants(_ transform: (PredicateValue) -> PredicateValue) -> ObjectPredicate {
        switch self {
        case .constant: self
        case .not(let predicate): .not(predicate.mappingConstants(transform))
        case .and(let terms): .and(terms.map { $0.mappingConstants(transform) })
        case .or(let terms): .or(terms.map { $0.mappingConstants(transform) })
        case .comparison(let comparison): .comparison(comparison.mapSides { $0.mappingConstants(transform) })
        }
    }
}

extension PredicateComparison: CustomStringConvertible {
    public var description: String {
        var text = quantifier == .direct ? "" : quantifier.rawValue + " "
        text += "\(lhs) \(self.operator.rawValue)"
        if !options.isEmpty {
            text += "[" + (options.contains(.caseInsensitive) ? "c" : "") + (options.contains(.diacriticInsensitive) ? "d" : "") + "]"
        }
        return text + " \(rhs)"
    }
}

extension PredicateExpression: CustomStringConvertible {
    public var description: String {
        switch self {
        case .evaluatedObject: "SELF"
        case .variable(let name): "$" + name
        case .constant(let value): value.description
        case .collection(let elements): "{" + elements.map(\.description).joined(separator: ", ") + "}"
        case .keyPath(.evaluatedObject, let path): path.map(Self.escapedKey).joined(separator: ".")
        case .keyPath(let base, let path): ([base.operand(binding: .max)] + path.map(Self.escapedKey)).joined(separator: ".")
        case .subquery(let collection, let variable, let predicate): "SUBQUERY(\(collection), $\(variable), \(predicate))"
        case .function(let function, let arguments): Self.format(function, arguments)
        case .conditional(let condition, let whenTrue, let whenFalse): "TERNARY(\(condition), \(whenTrue), \(whenFalse))"
        case .method(let receiver, let selector, let arguments):
            "FUNCTION(" + ([receiver.description, AttributeValue.string(selector).predicateLiteral] + arguments.map(\.description)).joined(separator: ", ") + ")"
        case .index(let collection, let index): collection.operand(binding: .max) + "[\(index)]"
        }
    }

    /// Operators between their operands, each operand in parentheses where the grouping needs
    /// them; `0 - x` as `-x`; other functions by their selector, as Foundation prints them
    /// (`lowercase:(name)`, `now()`).
    private static func format(_ function: PredicateFunction, _ arguments: [PredicateExpression]) -> String {
        if arguments.count == 2, let symbol = function.infixOperator, let precedence = function.precedence {
            if let negated = negatedOperand(function, arguments) {
                return "-" + negated.operand(binding: PredicateFunction.multiply.precedence!)
            }
            return arguments[0].operand(binding: precedence) + " \(symbol) " + arguments[1].operand(binding: precedence + 1)
        }
        if function == .onesComplement, arguments.count == 1 {
            return "~" + arguments[0].operand(binding: PredicateFunction.prefixPrecedence)
        }
        return function.rawValue + "(" + arguments.map(\.description).joined(separator: ", ") + ")"
    }

    /// `x` of `0 - x`, which prints as `-x`: unless `x` is a number literal, which `-` would make
    /// a negative literal rather than a subtraction.
    private static func negatedOperand(_ function: PredicateFunction, _ arguments: [PredicateExpression]) -> PredicateExpression? {
        guard function == .subtract, arguments[0] == .constant(.attribute(.integer(0))) else { return nil }
        if case .constant(.attribute(.integer)) = arguments[1] { return nil }
        if case .constant(.attribute(.double)) = arguments[1] { return nil }
        return arguments[1]
    }

    /// How tightly the expression binds as printed: an operator's precedence, `-x` as `0 - x`,
    /// `~x` past every operator, anything else past all. A negative number binds as `-x` does,
    /// since `-2 * 3` reads back as `-(2 * 3)`.
    private var precedence: Int {
        if case .constant(.attribute(let value)) = self, value.isNegativeNumber { return PredicateFunction.subtract.precedence! }
        guard case .function(let function, let arguments) = self else { return .max }
        if Self.negatedOperand(function, arguments) != nil { return PredicateFunction.subtract.precedence! }
        if function == .onesComplement { return PredicateFunction.prefixPrecedence }
        return arguments.count == 2 ? function.precedence ?? .max : .max
    }

    /// The expression printed as an operand of something binding as tightly as `minimum`.
    private func operand(binding minimum: Int) -> String {
        precedence < minimum ? "(\(self))" : description
    }

    /// A key that is a reserved word gets `#`.
    private static func escapedKey(_ key: String) -> String {
        PredicateToken.reservedWords.contains(key.uppercased()) ? "#" + key : key
    }
}

extension PredicateExpression {
    /// The expression with `transform` applied to every constant.
    func mappingConstants(_ transform: (PredicateValue) -> PredicateValue) -> PredicateExpression {
        switch self {
        case .evaluatedObject, .variable: self
        case .constant(let value): .constant(transform(value))
        case .collection(let elements): .collection(elements.map { $0.mappingConstants(transform) })
        case .keyPath(let base, let path): .keyPath(base.mappingConstants(transform), path)
        case .subquery(let collection, let variable, let predicate):
            .subquery(collection: collection.mappingConstants(transform), variable: variable, predicate: predicate.mappingConstants(transform))
        case .function(let function, let arguments): .function(function, arguments.map { $0.mappingConstants(transform) })
        case .conditional(let condition, let whenTrue, let whenFalse):
            .conditional(condition.mappingConstants(transform), whenTrue.mappingConstants(transform), whenFalse.mappingConstants(transform))
        case .method(let receiver, let selector, let arguments):
            .method(receiver.mappingConstants(transform), selector: selector, arguments.map { $0.mappingConstants(transform) })
        case .index(let collection, let index): .index(collection.mappingConstants(transform), index)
        }
    }
}

extension PredicateValue {
    /// The value with each Boolean as the number Foundation keeps it as.
    var withBooleansAsNumbers: PredicateValue {
        switch self {
        case .attribute(.bool(let value)): .attribute(.integer(value ? 1 : 0))
        case .collection(let elements): .collection(elements.map(\.withBooleansAsNumbers))
        default: self
        }
    }
}

extension PredicateIndex: CustomStringConvertible {
    public var description: String {
        switch self {
        case .first: "FIRST"
        case .last: "LAST"
        case .size: "SIZE"
        case .position(let position): "\(position)"
        }
    }
}

extension PredicateValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case .attribute(let value): value.predicateLiteral
        case .object(let id): id.description
        case .collection(let elements): "{" + elements.map(\.description).joined(separator: ", ") + "}"
        case .fetch(let fetch): fetch.description
        }
    }
}

extension AttributeValue {
    /// The value as a literal of the format syntax.
    var predicateLiteral: String {
        switch self {
        case .null: "nil"
        case .bool(let value): value ? "YES" : "NO"
        case .integer(let value): String(value)
        case .double(let value) where !value.isFinite: "CAST(\"\(value)\", \"NSNumber\")"
        case .double(let value): value == value.rounded() && abs(value) < 1e15 ? String(format: "%.1f", value) : "\(value)"
        case .date(let value): "CAST(\(value.timeIntervalSinceReferenceDate), \"NSDate\")"
        case .string(let value): Self.quoted(value)
        // Typed by a cast, so that the printed format parses back to the same value.
        case .decimal: "CAST(\(Self.quoted(predicateLiteralText)), \"NSDecimalNumber\")"
        case .data: "CAST(\(Self.quoted(predicateLiteralText)), \"NSData\")"
        case .uuid: "CAST(\(Self.quoted(predicateLiteralText)), \"NSUUID\")"
        case .url: "CAST(\(Self.quoted(predicateLiteralText)), \"NSURL\")"
        // The format syntax has no dictionaries (nor does Core Data's); printed for reading only.
        case .composite(let members):
            "{" + members.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value.predicateLiteral)" }.joined(separator: "; ") + "}"
        }
    }

    /// Whether the value prints with a leading `-`, which an operator after it would take as
    /// negating more than the number.
    var isNegativeNumber: Bool {
        switch self {
        case .integer(let value): value < 0
        case .double(let value): value.isFinite && value.sign == .minus
        default: false
        }
    }

    /// The value as text, for `CAST(…, 'NSString')` and quoting.
    var predicateLiteralText: String {
        switch self {
        case .string(let value): value
        case .decimal(let value): "\(value)"
        case .uuid(let value): value.uuidString
        case .url(let value): value.absoluteString
        case .data(let value): value.base64EncodedString()
        default: predicateLiteral
        }
    }

    private static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case "\r": quoted += "\\r"
            case "\0": quoted += "\\0"
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
