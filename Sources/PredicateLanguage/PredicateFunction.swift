/// A built-in function of `NSExpression`, named by its selector as Foundation names it. The
/// operators of the format syntax are functions too: `price * 2` is `multiply:by:(price, 2)`,
/// `flags & 4` is `bitwiseAnd:with:(flags, 4)`, `-price` is `from:subtract:(0, price)`.
///
/// A format string calls a function by its selector (`bitwiseAnd:with:(flags, 4)`,
/// `lowercase:(name)`), by its name alone when it takes one argument or none (`abs(x)`, `now()`),
/// or through its operator.
public enum PredicateFunction: String, Sendable, Hashable, CaseIterable {
    // Arithmetic: numbers in, a number out. Integers stay integers (`7 / 2` is 3, as in
    // Foundation); a real on either side makes the result real.
    case add = "add:to:"
    case subtract = "from:subtract:"
    case multiply = "multiply:by:"
    case divide = "divide:by:"
    /// The remainder of two integers, with the sign of the dividend.
    case modulus = "modulus:by:"
    /// A real power.
    case power = "raise:toPower:"

    // Bits of integers.
    case bitwiseAnd = "bitwiseAnd:with:"
    case bitwiseOr = "bitwiseOr:with:"
    case bitwiseXor = "bitwiseXor:with:"
    case leftShift = "leftshift:by:"
    case rightShift = "rightshift:by:"
    case onesComplement = "onesComplement:"

    // One number in, a number out.
    case abs = "abs:"
    case ceiling = "ceiling:"
    case floor = "floor:"
    case trunc = "trunc:"
    case sqrt = "sqrt:"
    /// Base 10.
    case log = "log:"
    case ln = "ln:"
    case exp = "exp:"

    // Text.
    case lowercase = "lowercase:"
    case uppercase = "uppercase:"
    /// The length in UTF-16 code units, as `NSString` counts it.
    case length = "length:"

    // Collections: a to-many key path (`sum:(books.price)`) or `{…}`.
    case sum = "sum:"
    case count = "count:"
    case min = "min:"
    case max = "max:"
    case average = "average:"
    /// The middle value; between two, their mean.
    case median = "median:"
    /// The values that occur most often, as a collection.
    case mode = "mode:"
    /// The population standard deviation.
    case standardDeviation = "stddev:"

    /// The current date, read once when a fetch is made.
    case now = "now"
    /// Its argument: Core Data's hint to read a key without its index.
    case noIndex = "noindex:"

    /// How many arguments it takes.
    public var arity: Int {
        rawValue == "now" ? 0 : rawValue.count { $0 == ":" }
    }

    /// The function a format string names: a selector, or the name of a function of one argument
    /// or none without its colon (`abs`, `now`). Names are case-sensitive, as selectors are.
    public init?(name: String) {
        if let function = PredicateFunction(rawValue: name) {
            self = function
        } else if let function = PredicateFunction(rawValue: name + ":"), function.arity == 1 {
            self = function
        } else {
            return nil
        }
    }

    /// The operator that writes it between its two arguments (`+`, `&`), if any.
    public var infixOperator: String? {
        switch self {
        case .add: "+"
        case .subtract: "-"
        case .multiply: "*"
        case .divide: "/"
        case .power: "**"
        case .bitwiseAnd: "&"
        case .bitwiseOr: "|"
        case .bitwiseXor: "^"
        case .leftShift: "<<"
        case .rightShift: ">>"
        default: nil
        }
    }

    /// How tightly the operator binds, from `|` (1) to `**` (7); every operator groups to the left,
    /// `**` included, as Foundation's parser groups it. Comparisons bind looser than all.
    var precedence: Int? {
        switch self {
        case .bitwiseOr: 1
        case .bitwiseXor: 2
        case .bitwiseAnd: 3
        case .leftShift, .rightShift: 4
        case .add, .subtract: 5
        case .multiply, .divide: 6
        case .power: 7
        default: nil
        }
    }

    /// The binary operators, by symbol.
    static let infixOperators: [String: PredicateFunction] = Dictionary(
        uniqueKeysWithValues: allCases.compactMap { function in function.infixOperator.map { ($0, function) } })

    /// The precedence of unary `-` and `~`: tighter than every binary operator.
    static let prefixPrecedence = 8
}
