import Foundation

/// Reads Core Data's predicate format syntax (recursive descent, one token of look-ahead),
/// consuming format arguments in order.
struct PredicateParser {
    private let tokens: [PredicateToken]
    private let format: String
    private var position = 0
    private var arguments: [any PredicateArgument]
    private var argumentIndex = 0

    init(format: String, arguments: [any PredicateArgument]) throws(PredicateSyntaxError) {
        self.format = format
        self.arguments = arguments
        tokens = try PredicateLexer.tokens(of: format)
    }

    mutating func parse() throws(PredicateSyntaxError) -> ObjectPredicate {
        let predicate = try orPredicate()
        guard current.kind == .end else { throw unexpected() }
        guard argumentIndex == arguments.count else {
            throw PredicateSyntaxError(
                message: "\(arguments.count) arguments given, the format uses \(argumentIndex)",
                column: format.count + 1, format: format)
        }
        return predicate
    }

    // MARK: Tokens

    private var current: PredicateToken { tokens[position] }

    private mutating func advance() -> PredicateToken {
        defer { if position < tokens.count - 1 { position += 1 } }
        return current
    }

    private mutating func take(keyword: String) -> Bool {
        guard current.keyword == keyword else { return false }
        position += 1
        return true
    }

    private mutating func take(symbol: String) -> Bool {
        guard current.kind == .symbol(symbol) else { return false }
        position += 1
        return true
    }

    private func error(_ message: String, at token: PredicateToken) -> PredicateSyntaxError {
        PredicateSyntaxError(message: message, column: token.column, format: format)
    }

    private func unexpected(expecting expected: String? = nil) -> PredicateSyntaxError {
        error(expected.map { "expected \($0), found \(current.quoted)" } ?? "unexpected \(current.quoted)", at: current)
    }

    private mutating func expect(symbol: String) throws(PredicateSyntaxError) {
        guard take(symbol: symbol) else { throw unexpected(expecting: "'\(symbol)'") }
    }

    // MARK: Predicates

    private mutating func orPredicate() throws(PredicateSyntaxError) -> ObjectPredicate {
        var terms = [try andPredicate()]
        while take(keyword: "OR") || take(symbol: "||") { terms.append(try andPredicate()) }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    private mutating func andPredicate() throws(PredicateSyntaxError) -> ObjectPredicate {
        var terms = [try notPredicate()]
        while take(keyword: "AND") || take(symbol: "&&") { terms.append(try notPredicate()) }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    private mutating func notPredicate() throws(PredicateSyntaxError) -> ObjectPredicate {
        if take(keyword: "NOT") || take(symbol: "!") { return .not(try notPredicate()) }
        return try primaryPredicate()
    }

    private mutating func primaryPredicate() throws(PredicateSyntaxError) -> ObjectPredicate {
        if current.kind == .symbol("(") {
            // A predicate in parentheses, or else a comparison whose left side is an expression in
            // parentheses (`(name) == 'x'`).
            let (start, startArgument) = (position, argumentIndex)
            do {
                return try parenthesizedPredicate()
            } catch {
                (position, argumentIndex) = (start, startArgument)
                guard let lhs = try? expression() else { throw error }
                return .comparison(try comparison(quantifier: .direct, lhs: lhs))
            }
        }
        if take(keyword: "TRUEPREDICATE") { return .true }
        if take(keyword: "FALSEPREDICATE") { return .false }
        var quantifier = Quantifier.direct
        switch current.keyword {
        case "ANY", "SOME": quantifier = .any
        case "ALL": quantifier = .all
        case "NONE": quantifier = .none
        default: break
        }
        if quantifier != .direct { position += 1 }
        return .comparison(try comparison(quantifier: quantifier))
    }

    /// `(predicate)`.
    private mutating func parenthesizedPredicate() throws(PredicateSyntaxError) -> ObjectPredicate {
        let open = advance()
        let predicate = try orPredicate()
        if current.kind == .end { throw error("expected ')'", at: open) }
        try expect(symbol: ")")
        return predicate
    }

    /// `lhs op rhs`; `lhs` is read first unless given.
    private mutating func comparison(quantifier: Quantifier, lhs given: PredicateExpression? = nil) throws(PredicateSyntaxError) -> PredicateComparison {
        let lhs: PredicateExpression
        if let given { lhs = given } else { lhs = try expression() }
        let operatorToken = current
        let comparisonOperator: ComparisonOperator
        switch (operatorToken.kind, operatorToken.keyword) {
        case (.symbol("=="), _), (.symbol("="), _): comparisonOperator = .equal
        case (.symbol("!="), _), (.symbol("<>"), _): comparisonOperator = .notEqual
        case (.symbol("<"), _): comparisonOperator = .less
        case (.symbol("<="), _), (.symbol("=<"), _): comparisonOperator = .lessOrEqual
        case (.symbol(">"), _): comparisonOperator = .greater
        case (.symbol(">="), _), (.symbol("=>"), _): comparisonOperator = .greaterOrEqual
        case (_, "BEGINSWITH"): comparisonOperator = .beginsWith
        case (_, "ENDSWITH"): comparisonOperator = .endsWith
        case (_, "CONTAINS"): comparisonOperator = .contains
        case (_, "LIKE"): comparisonOperator = .like
        case (_, "MATCHES"): comparisonOperator = .matches
        case (_, "IN"): comparisonOperator = .in
        case (_, "BETWEEN"): comparisonOperator = .between
        default: throw unexpected(expecting: "a comparison operator")
        }
        position += 1
        let options = try stringOptions()
        let rhs = try expression()
        if comparisonOperator == .between {
            guard case .collection(let bounds) = rhs, bounds.count == 2 else {
                throw error("BETWEEN needs two bounds: {low, high}", at: operatorToken)
            }
        }
        return PredicateComparison(lhs, comparisonOperator, rhs, options: options, quantifier: quantifier)
    }

    /// `[c]`, `[d]`, `[cd]` (also `[n]`, `[l]`, which change nothing here).
    private mutating func stringOptions() throws(PredicateSyntaxError) -> StringOptions {
        guard current.kind == .symbol("[") else { return [] }
        position += 1
        guard case .word(let letters) = current.kind else { throw unexpected(expecting: "c, d or cd") }
        var options: StringOptions = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n", "l": break
            default: throw error("unknown option '\(letter)'; expected c, d or cd", at: current)
            }
        }
        position += 1
        try expect(symbol: "]")
        return options
    }

    // MARK: Arithmetic

    /// Parses the whole format as an arithmetic expression (``ObjectExpression``).
    mutating func parseArithmetic() throws(PredicateSyntaxError) -> ObjectExpression {
        let expression = try sum()
        guard current.kind == .end else { throw unexpected() }
        guard argumentIndex == arguments.count else {
            throw PredicateSyntaxError(
                message: "\(arguments.count) arguments given, the format uses \(argumentIndex)",
                column: format.count + 1, format: format)
        }
        return expression
    }

    private mutating func sum() throws(PredicateSyntaxError) -> ObjectExpression {
        var expression = try product()
        while true {
            if take(symbol: "+") {
                expression = .arithmetic(.add, expression, try product())
            } else if take(symbol: "-") {
                expression = .arithmetic(.subtract, expression, try product())
            } else if case .number(let value) = current.kind, Self.isNegative(value) {
                // `price -1`: the lexer read the minus sign as part of the number.
                position += 1
                expression = .arithmetic(.add, expression, .constant(value))
            } else {
                return expression
            }
        }
    }

    private mutating func product() throws(PredicateSyntaxError) -> ObjectExpression {
        var expression = try operand()
        while true {
            if take(symbol: "*") {
                expression = .arithmetic(.multiply, expression, try operand())
            } else if take(symbol: "/") {
                expression = .arithmetic(.divide, expression, try operand())
            } else {
                return expression
            }
        }
    }

    private static func isNegative(_ number: AttributeValue) -> Bool {
        switch number {
        case .integer(let value): value < 0
        case .double(let value): value.sign == .minus
        default: false
        }
    }

    /// A key, a constant, a format argument, `-operand` or `(sum)`.
    private mutating func operand() throws(PredicateSyntaxError) -> ObjectExpression {
        let open = current
        if take(symbol: "-") { return .arithmetic(.subtract, .constant(.integer(0)), try operand()) }
        if take(symbol: "(") {
            let expression = try sum()
            if current.kind == .end { throw error("expected ')'", at: open) }
            try expect(symbol: ")")
            return expression
        }
        switch try expression() {
        case .constant(.attribute(let value)): return .constant(value)
        case .keyPath(.evaluatedObject, let path): return .key(path.joined(separator: "."))
        default: throw error("expected a key, a number or a value", at: open)
        }
    }

    // MARK: Expressions

    private mutating func expression() throws(PredicateSyntaxError) -> PredicateExpression {
        var expression = try primaryExpression()
        while take(symbol: ".") {
            let component: String
            switch current.kind {
            case .word(let word), .escapedWord(let word): component = word
            case .collectionOperator(let name): component = "@" + name
            default: throw unexpected(expecting: "a key after '.'")
            }
            position += 1
            if case .keyPath(let base, let path) = expression {
                expression = .keyPath(base, path + [component])
            } else {
                expression = .keyPath(expression, [component])
            }
        }
        return expression
    }

    private mutating func primaryExpression() throws(PredicateSyntaxError) -> PredicateExpression {
        let token = current
        switch token.kind {
        case .string(let text):
            position += 1
            return .constant(.attribute(.string(text)))
        case .number(let value):
            position += 1
            return .constant(.attribute(value))
        case .escapedWord(let word):
            position += 1
            return .keyPath(.evaluatedObject, [word])
        case .variable(let name):
            position += 1
            return .variable(name)
        case .specifier(let specifier):
            position += 1
            return try argument(for: specifier, at: token)
        case .symbol("("):
            position += 1
            let inner = try expression()
            if current.kind == .end { throw error("expected ')'", at: token) }
            try expect(symbol: ")")
            return inner
        case .symbol("{"):
            position += 1
            var elements: [PredicateExpression] = []
            if !take(symbol: "}") {
                repeat { elements.append(try expression()) } while take(symbol: ",")
                try expect(symbol: "}")
            }
            return .collection(elements)
        case .word(let word):
            switch token.keyword {
            case nil:
                position += 1
                return .keyPath(.evaluatedObject, [word])
            case "SELF":
                position += 1
                return .evaluatedObject
            case "NIL", "NULL":
                position += 1
                return .constant(.null)
            case "TRUE", "YES":
                position += 1
                return .constant(.attribute(.bool(true)))
            case "FALSE", "NO":
                position += 1
                return .constant(.attribute(.bool(false)))
            case "SUBQUERY":
                position += 1
                return try subquery()
            case "CAST":
                position += 1
                return try cast()
            default:
                throw error("unexpected reserved word \(token.quoted); write #\(word) for a key of that name", at: token)
            }
        default:
            throw unexpected(expecting: "a key path or a value")
        }
    }

    /// `SUBQUERY(collection, $x, predicate)`.
    private mutating func subquery() throws(PredicateSyntaxError) -> PredicateExpression {
        try expect(symbol: "(")
        let collection = try expression()
        try expect(symbol: ",")
        guard case .variable(let variable) = current.kind else { throw unexpected(expecting: "a $variable") }
        position += 1
        try expect(symbol: ",")
        let predicate = try orPredicate()
        try expect(symbol: ")")
        return .subquery(collection: collection, variable: variable, predicate: predicate)
    }

    /// `CAST(seconds, 'NSDate')`: a date given as seconds since 2001-01-01; also `'NSNumber'`,
    /// `'NSString'` and `'NSDecimalNumber'` on constants, and `'NSData'` (Base64), `'NSUUID'` and
    /// `'NSURL'` on strings — the forms `predicateFormat` prints typed values in.
    private mutating func cast() throws(PredicateSyntaxError) -> PredicateExpression {
        try expect(symbol: "(")
        let valueToken = current
        let value = try expression()
        try expect(symbol: ",")
        guard case .string(let type) = current.kind else { throw unexpected(expecting: "a type name such as 'NSDate'") }
        let typeToken = current
        position += 1
        try expect(symbol: ")")
        guard case .constant(.attribute(let constant)) = value else {
            throw error("CAST takes a constant", at: valueToken)
        }
        switch (type, constant) {
        case ("NSDate", .integer(let seconds)): return .constant(.attribute(.date(Date(timeIntervalSinceReferenceDate: Double(seconds)))))
        case ("NSDate", .double(let seconds)): return .constant(.attribute(.date(Date(timeIntervalSinceReferenceDate: seconds))))
        case ("NSDate", .string(let text)):
            guard let seconds = Double(text) else { throw error("cannot read \(text.debugDescription) as a date", at: valueToken) }
            return .constant(.attribute(.date(Date(timeIntervalSinceReferenceDate: seconds))))
        case ("NSNumber", .string(let text)):
            if let integer = Int64(text) { return .constant(.attribute(.integer(integer))) }
            guard let number = Double(text) else { throw error("cannot read \(text.debugDescription) as a number", at: valueToken) }
            return .constant(.attribute(.double(number)))
        case ("NSNumber", .integer), ("NSNumber", .double): return value
        case ("NSString", _): return .constant(.attribute(.string(constant.predicateLiteralText)))
        case ("NSDecimalNumber", .integer), ("NSDecimalNumber", .double), ("NSDecimalNumber", .string), ("NSDecimalNumber", .decimal):
            guard let decimal = Decimal(string: constant.predicateLiteralText, locale: Locale(identifier: "en_US_POSIX")), !decimal.isNaN else {
                throw error("cannot read \(constant.predicateLiteralText.debugDescription) as a decimal number", at: valueToken)
            }
            return .constant(.attribute(.decimal(decimal)))
        case ("NSData", .string(let text)):
            guard let data = Data(base64Encoded: text) else { throw error("cannot read \(text.debugDescription) as Base64 data", at: valueToken) }
            return .constant(.attribute(.data(data)))
        case ("NSUUID", .string(let text)):
            guard let uuid = UUID(uuidString: text) else { throw error("cannot read \(text.debugDescription) as a UUID", at: valueToken) }
            return .constant(.attribute(.uuid(uuid)))
        case ("NSURL", .string(let text)):
            guard let url = URL(string: text) else { throw error("cannot read \(text.debugDescription) as a URL", at: valueToken) }
            return .constant(.attribute(.url(url)))
        default:
            throw error("cannot cast to '\(type)'; expected 'NSDate', 'NSNumber', 'NSString', 'NSDecimalNumber', 'NSData', 'NSUUID' or 'NSURL'", at: typeToken)
        }
    }

    /// The next format argument, as `specifier` reads it.
    private mutating func argument(for specifier: String, at token: PredicateToken) throws(PredicateSyntaxError) -> PredicateExpression {
        guard argumentIndex < arguments.count else {
            throw error("no argument for '%\(specifier)' (\(arguments.count) given)", at: token)
        }
        let value = arguments[argumentIndex].predicateValue
        argumentIndex += 1
        let ordinal = "argument \(argumentIndex)"
        switch (specifier, value) {
        case ("@", _):
            return .value(value)
        case ("K", .attribute(.string(let path))):
            let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard components.allSatisfy(PredicateLexer.isKey) else { throw error("\(ordinal) for %K is not a key path: \(path.debugDescription)", at: token) }
            return .keyPath(.evaluatedObject, components)
        case ("K", _):
            throw error("\(ordinal) for %K must be a string key path", at: token)
        case ("f", .attribute(.double)), ("lf", .attribute(.double)):
            return .constant(value)
        case ("f", .attribute(.integer(let integer))), ("lf", .attribute(.integer(let integer))):
            return .constant(.attribute(.double(Double(integer))))
        case (_, .attribute(.integer)) where specifier != "f" && specifier != "lf":
            return .constant(value)
        case (_, .attribute(.bool(let flag))) where specifier != "f" && specifier != "lf":
            return .constant(.attribute(.integer(flag ? 1 : 0)))
        default:
            throw error("\(ordinal) for %\(specifier) must be \(specifier.hasSuffix("f") ? "a number" : "an integer"), not \(value)", at: token)
        }
    }
}

extension ObjectPredicate {
    /// Parses Core Data's predicate format syntax, replacing `%@ %K %d %i %ld %lld %u %f %lf` by
    /// `arguments` in order.
    ///
    ///     try ObjectPredicate(format: "details.closeDate > %@ AND name BEGINSWITH[c] %@", date, "first")
    public init(format: String, _ arguments: any PredicateArgument...) throws(PredicateSyntaxError) {
        try self.init(format: format, arguments: arguments)
    }

    /// Parses `format` with an array of arguments.
    public init(format: String, arguments: [any PredicateArgument]) throws(PredicateSyntaxError) {
        var parser = try PredicateParser(format: format, arguments: arguments)
        self = try parser.parse()
    }
}
