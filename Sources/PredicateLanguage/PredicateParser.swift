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
        try expectEnd()
        return predicate
    }

    /// Parses the whole format as one expression (`NSExpression(format:)`).
    mutating func parseExpression() throws(PredicateSyntaxError) -> PredicateExpression {
        let expression = try expression()
        try expectEnd()
        return expression
    }

    /// Checks that the format ends here, having used every argument.
    private func expectEnd() throws(PredicateSyntaxError) {
        guard current.kind == .end else { throw unexpected() }
        guard argumentIndex == arguments.count else {
            throw PredicateSyntaxError(
                message: "\(arguments.count) arguments given, the format uses \(argumentIndex)",
                column: format.count + 1, format: format)
        }
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
        let expression = try arithmetic()
        try expectEnd()
        return expression
    }

    /// An expression of keys, constants and `+ - * /`, each operand checked where it stands.
    private mutating func arithmetic(binding minimum: Int = 1) throws(PredicateSyntaxError) -> ObjectExpression {
        var expression = try arithmeticOperand()
        while case .symbol(let symbol) = current.kind, let function = PredicateFunction.infixOperators[symbol],
              let arithmeticOperator = ArithmeticOperator(function), let precedence = function.precedence, precedence >= minimum {
            position += 1
            expression = .arithmetic(arithmeticOperator, expression, try arithmetic(binding: precedence + 1))
        }
        return expression
    }

    /// A key, a constant, a format argument, `-operand` or `(expression)`.
    private mutating func arithmeticOperand() throws(PredicateSyntaxError) -> ObjectExpression {
        let open = current
        if take(symbol: "-") {
            let operand = try arithmetic(binding: PredicateFunction.multiply.precedence!)
            if case .constant(let number) = operand, let negative = number.negated { return .constant(negative) }
            return .arithmetic(.subtract, .constant(.integer(0)), operand)
        }
        if take(symbol: "(") {
            let expression = try arithmetic()
            if current.kind == .end { throw error("expected ')'", at: open) }
            try expect(symbol: ")")
            return expression
        }
        switch try postfixed() {
        case .constant(.attribute(let value)): return .constant(value)
        case .keyPath(.evaluatedObject, let path): return .key(path.joined(separator: "."))
        default: throw error("expected a key, a number or a value", at: open)
        }
    }

    // MARK: Expressions

    /// Operands joined by the binary operators that bind at least as tightly as `minimum`
    /// (`PredicateFunction.precedence`), each grouping to the left.
    private mutating func expression(binding minimum: Int = 1) throws(PredicateSyntaxError) -> PredicateExpression {
        var expression = try prefixed()
        while case .symbol(let symbol) = current.kind, let function = PredicateFunction.infixOperators[symbol],
              let precedence = function.precedence, precedence >= minimum {
            position += 1
            expression = .function(function, [expression, try self.expression(binding: precedence + 1)])
        }
        return expression
    }

    /// `-x`, which binds as `0 - x` does (`-a ** b` is `-(a ** b)`) and makes a number literal
    /// negative; `~x`; or an operand.
    private mutating func prefixed() throws(PredicateSyntaxError) -> PredicateExpression {
        if take(symbol: "-") {
            let operand = try expression(binding: PredicateFunction.multiply.precedence!)
            if case .constant(.attribute(let number)) = operand, let negative = number.negated { return .constant(.attribute(negative)) }
            return .function(.subtract, [.constant(.attribute(.integer(0))), operand])
        }
        if take(symbol: "~") { return .function(.onesComplement, [try prefixed()]) }
        return try postfixed()
    }

    /// An operand followed by keys (`.name`) and indexes (`[FIRST]`).
    private mutating func postfixed() throws(PredicateSyntaxError) -> PredicateExpression {
        var expression = try primaryExpression()
        while true {
            if take(symbol: ".") {
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
            } else if take(symbol: "[") {
                expression = .index(expression, try index())
                try expect(symbol: "]")
            } else {
                return expression
            }
        }
    }

    /// What follows `[`: `FIRST`, `LAST`, `SIZE`, or an integer (a literal or an argument).
    private mutating func index() throws(PredicateSyntaxError) -> PredicateIndex {
        let token = current
        switch token.kind {
        case .word(let word) where ["FIRST", "LAST", "SIZE"].contains(word.uppercased()):
            position += 1
            return word.uppercased() == "FIRST" ? .first : word.uppercased() == "LAST" ? .last : .size
        case .number(.integer(let position)):
            self.position += 1
            return .position(Int(position))
        case .specifier(let specifier):
            position += 1
            guard case .constant(.attribute(.integer(let position))) = try argument(for: specifier, at: token) else {
                throw error("an index must be an integer", at: token)
            }
            return .position(Int(position))
        default:
            throw unexpected(expecting: "FIRST, LAST, SIZE or an integer index")
        }
    }

    /// `name(arguments)` or `selector:with:(arguments)`, the name read already; `TERNARY(…)`.
    private mutating func call(_ name: String, at token: PredicateToken) throws(PredicateSyntaxError) -> PredicateExpression {
        if name.uppercased() == "TERNARY" {
            try expect(symbol: "(")
            let condition = try orPredicate()
            try expect(symbol: ",")
            let whenTrue = try expression()
            try expect(symbol: ",")
            let whenFalse = try expression()
            try expect(symbol: ")")
            return .conditional(condition, whenTrue, whenFalse)
        }
        if name.uppercased() == "FUNCTION" {
            try expect(symbol: "(")
            let receiver = try expression()
            try expect(symbol: ",")
            let selectorToken = current
            guard case .constant(.attribute(.string(let selector))) = try expression() else {
                throw error("FUNCTION's second argument is the method's name, as a string: FUNCTION($entityPolicy, \"migrate:\", $source.x)", at: selectorToken)
            }
            var arguments: [PredicateExpression] = []
            while take(symbol: ",") { arguments.append(try expression()) }
            try expect(symbol: ")")
            return .method(receiver, selector: selector, arguments)
        }
        guard let function = PredicateFunction(name: name) else {
            throw error("unknown function '\(name)'; the built-in functions are \(PredicateFunction.allCases.map(\.rawValue).joined(separator: ", "))", at: token)
        }
        try expect(symbol: "(")
        var arguments: [PredicateExpression] = []
        if !take(symbol: ")") {
            repeat { arguments.append(try expression()) } while take(symbol: ",")
            try expect(symbol: ")")
        }
        guard arguments.count == function.arity else {
            throw error("\(function.rawValue) takes \(function.arity) argument\(function.arity == 1 ? "" : "s"), not \(arguments.count)", at: token)
        }
        return .function(function, arguments)
    }

    /// The selector `word:word:…` whose first word is read already, up to its `(`.
    private mutating func selector(startingWith word: String) throws(PredicateSyntaxError) -> String {
        var name = word
        while take(symbol: ":") {
            name += ":"
            guard case .word(let part) = current.kind, tokens[position + 1].kind == .symbol(":") else { break }
            name += part
            position += 1
        }
        return name
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
                switch current.kind {
                case .symbol("("): return try call(word, at: token)
                case .symbol(":"): return try call(try selector(startingWith: word), at: token)
                default: return .keyPath(.evaluatedObject, [word])
                }
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

private extension AttributeValue {
    /// The number negated, as `-` makes a literal negative; `nil` for what is not a number.
    var negated: AttributeValue? {
        switch self {
        case .integer(let value): value == .min ? .double(-Double(value)) : .integer(-value)
        // 9223372036854775808 reads as a real, past the integers: negated, it is the least one.
        case .double(let value): value == -Double(Int64.min) ? .integer(.min) : .double(-value)
        default: nil
        }
    }
}

private extension ArithmeticOperator {
    /// The operator of a batch update's arithmetic that `function` is, if any.
    init?(_ function: PredicateFunction) {
        switch function {
        case .add: self = .add
        case .subtract: self = .subtract
        case .multiply: self = .multiply
        case .divide: self = .divide
        default: return nil
        }
    }
}

extension PredicateExpression {
    /// Parses Core Data's expression format syntax, as `NSExpression(format:)` does: a key path,
    /// a constant, arithmetic, a function call (`sum:(price)`, `lowercase:(title)`), `TERNARY`…,
    /// replacing `%@ %K %d …` by `arguments` in order.
    ///
    ///     try PredicateExpression(format: "price * %d", 2)
    public init(format: String, _ arguments: any PredicateArgument...) throws(PredicateSyntaxError) {
        var parser = try PredicateParser(format: format, arguments: arguments)
        self = try parser.parseExpression()
    }
}
