/// A value computed from an object's attributes, in the arithmetic of Core Data's `NSExpression`
/// format syntax: keys, constants, format arguments, `+ - * /` and parentheses. A batch update
/// sets attributes to one (`price * 1.1`), evaluated by the store for each row.
///
///     let raised = try ObjectExpression(format: "price * %@ + 1", 1.1)
///
/// Integers divide as integers, as in `NSExpression` and predicates (`7 / 2` is 3), and a real on
/// either side divides as reals (`7 / 2.0` is 3.5); an operand without a value (or a division by
/// zero) gives no value.
public indirect enum ObjectExpression: Sendable, Hashable, CustomStringConvertible {
    case constant(AttributeValue)
    /// An attribute of the object.
    case key(String)
    case arithmetic(ArithmeticOperator, ObjectExpression, ObjectExpression)

    /// Parses `format`, replacing `%@ %K %d %i %ld %lld %u %f %lf` by `arguments` in order.
    public init(format: String, _ arguments: any PredicateArgument...) throws(PredicateSyntaxError) {
        var parser = try PredicateParser(format: format, arguments: arguments)
        self = try parser.parseArithmetic()
    }

    /// The expression in the format syntax, fully parenthesised, negative numbers too.
    public var description: String {
        switch self {
        case .constant(let value) where value.isNegativeNumber: "(\(value.predicateLiteral))"
        case .constant(let value): value.predicateLiteral
        case .key(let path): path
        case .arithmetic(let arithmeticOperator, let lhs, let rhs): "(\(lhs) \(arithmeticOperator.rawValue) \(rhs))"
        }
    }
}

/// `+`, `-`, `*` and `/` of ``ObjectExpression``.
public enum ArithmeticOperator: String, Sendable, Hashable {
    case add = "+", subtract = "-", multiply = "*", divide = "/"
}
