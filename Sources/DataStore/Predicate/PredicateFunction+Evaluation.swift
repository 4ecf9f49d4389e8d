import Foundation
import GRDB

/// The values of the built-in functions, on stored values, with SQLite's arithmetic: what
/// in-memory evaluation computes, what a comparison of constants is judged by, and what SQLite's
/// `DSFUNCTION` computes, so that a predicate means the same in SQL and in memory.
extension PredicateFunction {
    /// The function's value for `arguments`; `NULL` when an argument is `NULL`, as in SQL.
    /// `inReals`: the operands are read as reals first.
    ///
    /// Two integers add, subtract and multiply as integers, and as reals once the result leaves
    /// 64 bits; divide as integers, truncated (`7 / 2` is 3, as in Foundation); by zero, `NULL`.
    /// A real on either side makes every operator real. Bits are of 64-bit integers; a shift by a
    /// negative count shifts the other way, and by 64 or more leaves 0 (or -1 shifting a negative
    /// right). A result that is not a number (`sqrt:(-1)`) is `NULL`, as the store keeps it.
    func value(of arguments: [DatabaseValue], inReals: Bool = false) -> DatabaseValue {
        guard !arguments.contains(where: \.isNull) else { return .null }
        var operands = arguments
        if inReals {
            for index in operands.indices { operands[index] = Self.real(operands[index])?.databaseValue ?? .null }
        }
        switch self {
        case .add, .subtract, .multiply, .divide, .modulus:
            return Self.arithmetic(self, operands[0], operands[1])
        case .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift:
            guard let lhs = Self.integer(operands[0]), let rhs = Self.integer(operands[1]) else { return .null }
            switch self {
            case .bitwiseAnd: return (lhs & rhs).databaseValue
            case .bitwiseOr: return (lhs | rhs).databaseValue
            case .bitwiseXor: return (lhs ^ rhs).databaseValue
            case .leftShift: return (lhs << rhs).databaseValue
            default: return (lhs >> rhs).databaseValue
            }
        case .onesComplement:
            return Self.integer(operands[0]).map { (~$0).databaseValue } ?? .null
        case .abs:
            if let value = Self.integer(operands[0]) { return value == .min ? (-Double(value)).databaseValue : Swift.abs(value).databaseValue }
            return Self.real(operands[0]).map { Self.stored(Swift.abs($0)) } ?? .null
        case .ceiling, .floor, .trunc:
            if Self.integer(operands[0]) != nil { return operands[0] }
            guard let value = Self.real(operands[0]) else { return .null }
            let rule: FloatingPointRoundingRule = self == .ceiling ? .up : self == .floor ? .down : .towardZero
            return Self.stored(value.rounded(rule))
        case .sqrt, .log, .ln, .exp:
            guard let value = Self.real(operands[0]) else { return .null }
            let result = switch self {
            case .sqrt: value.squareRoot()
            case .log: Foundation.log10(value)
            case .ln: Foundation.log(value)
            default: Foundation.exp(value)
            }
            return Self.stored(result)
        case .power:
            guard let base = Self.real(operands[0]), let exponent = Self.real(operands[1]) else { return .null }
            return Self.stored(Foundation.pow(base, exponent))
        case .lowercase, .uppercase:
            guard let text = String.fromDatabaseValue(operands[0]) else { return .null }
            return (self == .lowercase ? text.lowercased() : text.uppercased()).databaseValue
        case .length:
            guard let text = String.fromDatabaseValue(operands[0]) else { return .null }
            return Int64(text.utf16.count).databaseValue
        case .noIndex:
            return operands[0]
        case .sum, .count, .min, .max, .average, .median, .mode, .standardDeviation, .now:
            // Resolved into aggregates and constants before anything is evaluated.
            return .null
        }
    }

    /// `+ - * /` and `modulus:by:` as SQLite computes them.
    private static func arithmetic(_ function: PredicateFunction, _ lhs: DatabaseValue, _ rhs: DatabaseValue) -> DatabaseValue {
        if let left = integer(lhs), let right = integer(rhs) {
            let (result, overflow): (Int64, Bool)
            switch function {
            case .add: (result, overflow) = left.addingReportingOverflow(right)
            case .subtract: (result, overflow) = left.subtractingReportingOverflow(right)
            case .multiply: (result, overflow) = left.multipliedReportingOverflow(by: right)
            case .divide:
                guard right != 0 else { return .null }
                (result, overflow) = left.dividedReportingOverflow(by: right)
            default:
                guard right != 0 else { return .null }
                // `Int64.min % -1` is 0, as in SQLite.
                return left.remainderReportingOverflow(dividingBy: right).partialValue.databaseValue
            }
            guard overflow else { return result.databaseValue }
            return arithmetic(function, Double(left).databaseValue, Double(right).databaseValue)
        }
        guard let left = real(lhs), let right = real(rhs) else { return .null }
        switch function {
        case .add: return stored(left + right)
        case .subtract: return stored(left - right)
        case .multiply: return stored(left * right)
        case .divide: return right == 0 ? .null : stored(left / right)
        default:
            // SQLite takes the remainder of the integers the reals truncate to.
            guard let dividend = Int64(exactly: left.rounded(.towardZero)), let divisor = Int64(exactly: right.rounded(.towardZero)), divisor != 0 else {
                return .null
            }
            return dividend.remainderReportingOverflow(dividingBy: divisor).partialValue.databaseValue
        }
    }

    /// An integer's value; `nil` for a real or what is not a number.
    private static func integer(_ value: DatabaseValue) -> Int64? {
        if case .int64(let integer) = value.storage { integer } else { nil }
    }

    /// A number's value as a real; `nil` for what is not a number.
    private static func real(_ value: DatabaseValue) -> Double? {
        if let integer = integer(value) { return Double(integer) }
        if case .double(let real) = value.storage { return real }
        return nil
    }

    /// A real as the store keeps it: not a number, `NULL`.
    private static func stored(_ value: Double) -> DatabaseValue {
        value.isNaN ? .null : value.databaseValue
    }

    /// Whether it works on the bits of integers: `& | ^ << >> ~`.
    package var isBitwise: Bool {
        switch self {
        case .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift, .onesComplement: true
        default: false
        }
    }

    /// Whether SQL computes it with its own operators on every engine (the rest: `value(of:)`,
    /// through SQLite's `DSFUNCTION`, or in memory on a server).
    var isOperator: Bool {
        switch self {
        case .add, .subtract, .multiply, .divide, .modulus: true
        default: isBitwise
        }
    }
}
