import Foundation
import GRDB

/// Operators, functions, `TERNARY` and index expressions: checked for the kinds of their
/// operands, computed now when every operand is a constant, and otherwise resolved to what SQL
/// and in-memory evaluation compute for each row.
extension PredicateResolver {
    func functionSide(_ function: PredicateFunction, _ arguments: [PredicateExpression], _ expression: PredicateExpression) throws(ContextError) -> Side {
        func fail(_ reason: String) -> ContextError { .invalidPredicate("\(reason), in '\(expression)'") }
        switch function {
        case .now:
            // Read once, so that SQL and memory compare with the same instant.
            return .constant(.attribute(.date(Date())))
        case .sum, .count, .min, .max, .average:
            return try collectionFunction(function, of: arguments[0], expression)
        case .median, .mode, .standardDeviation:
            return try statistic(function, of: arguments[0], expression)
        case .noIndex:
            // An index hint to Core Data's SQL: the value itself.
            return try side(arguments[0])
        default:
            break
        }
        var sides: [Side] = []
        for argument in arguments { sides.append(try side(argument)) }
        let kinds = sides.map(kind)
        let takesText = [.lowercase, .uppercase, .length].contains(function)
        for (argument, kind) in zip(arguments, kinds) where kind != nil {
            guard kind!.group == (takesText ? "string" : "number") else {
                throw fail("\(function.infixOperator ?? function.rawValue) takes \(takesText ? "text" : "numbers"), not a \(kind!.group) ('\(argument)')")
            }
        }
        if function.isBitwise || function == .modulus, let real = zip(arguments, kinds).first(where: { $0.1.map { !$0.isIntegral } ?? false }) {
            throw fail("\(function.infixOperator ?? function.rawValue) takes integers, not '\(real.0)'")
        }
        let inReals = function.isOperator && kinds.contains { $0.map { !$0.isIntegral } ?? false }
        let operands = sides.map(resolvedOperand)
        if operands.allSatisfy({ if case .value = $0 { true } else { false } }) {
            let values = operands.map { if case .value(let value) = $0 { value } else { DatabaseValue.null } }
            return .constant(PredicateValue(stored: function.value(of: values, inReals: inReals)))
        }
        let kind: ValueKind = switch function {
        case .lowercase, .uppercase: .attribute(.string)
        case .length: .integer
        case .abs, .ceiling, .floor, .trunc: kinds[0].map { $0.isIntegral ? .integer : .real } ?? .real
        case .power, .sqrt, .log, .ln, .exp: .real
        default: inReals ? .real : .integer
        }
        return .resolved(function.isOperator ? .operation(function, operands, inReals: inReals) : .function(function, operands), kind)
    }

    /// `TERNARY(condition, whenTrue, whenFalse)`: both sides of one kind, a constant one converted
    /// to the other's.
    func conditionalSide(
        _ condition: ObjectPredicate, _ whenTrue: PredicateExpression, _ whenFalse: PredicateExpression, _ expression: PredicateExpression
    ) throws(ContextError) -> Side {
        func fail(_ reason: String) -> ContextError { .invalidPredicate("\(reason), in '\(expression)'") }
        let resolved = try resolve(condition)
        if case .constant(let holds) = resolved { return try side(holds ? whenTrue : whenFalse) }
        let sides = (try side(whenTrue), try side(whenFalse))
        let kinds = (kind(of: sides.0), kind(of: sides.1))
        if let left = kinds.0, let right = kinds.1, left.group != right.group {
            throw fail("TERNARY gives a \(left.group) or a \(right.group); both must be of one kind")
        }
        let kind: ValueKind
        switch kinds {
        case (let left?, let right?): kind = left == right ? left : left.group == "number" && left.isIntegral && right.isIntegral ? .integer : left.group == "number" ? .real : left
        case (let known?, nil), (nil, let known?): kind = known
        case (nil, nil): return .constant(.attribute(.null))
        }
        func branch(_ side: Side) throws(ContextError) -> ResolvedExpression {
            switch side {
            case .resolved(let expression, _): expression
            case .constant(let value): try convert(value, to: kind, options: [], fail)
            }
        }
        return .resolved(.conditional(resolved, try branch(sides.0), try branch(sides.1)), kind)
    }

    /// `collection[SIZE]` of a to-many or of `{…}`; `[FIRST]`, `[LAST]` and `[n]` of `{…}`.
    func indexSide(_ collection: PredicateExpression, _ index: PredicateIndex, _ expression: PredicateExpression) throws(ContextError) -> Side {
        if case .toMany(let resolved, let rest)? = try walkIfKeyPath(collection), rest.isEmpty {
            guard index == .size else {
                throw .invalidPredicate("a to-many relationship is read in a fetch by [SIZE] only, in '\(expression)'")
            }
            return .resolved(.aggregate(.count, resolved, value: nil), .count)
        }
        guard case .collection(let elements) = try constantValue(of: collection) else {
            throw .invalidPredicate("[\(index)] reads a to-many relationship or a collection {…}, in '\(expression)'")
        }
        switch index {
        case .size: return .constant(.attribute(.integer(Int64(elements.count))))
        case .first: return .constant(elements.first ?? .attribute(.null))
        case .last: return .constant(elements.last ?? .attribute(.null))
        case .position(let position):
            guard elements.indices.contains(position) else {
                throw .invalidPredicate("[\(position)] is past the \(elements.count) elements, in '\(expression)'")
            }
            return .constant(elements[position])
        }
    }

    /// `sum:(books.price)`, `count:(books)`, …: the aggregate of a to-many (`books.@sum.price`),
    /// or of the numbers of `{…}`, computed now.
    private func collectionFunction(_ function: PredicateFunction, of argument: PredicateExpression, _ expression: PredicateExpression) throws(ContextError) -> Side {
        let aggregate: AggregateFunction = switch function {
        case .sum: .sum
        case .count: .count
        case .min: .minimum
        case .max: .maximum
        default: .average
        }
        if case .toMany(let collection, let rest)? = try walkIfKeyPath(argument) {
            return try self.aggregate(collection, aggregate == .count ? [aggregate.rawValue] : [aggregate.rawValue] + rest, text: "\(expression)")
        }
        guard case .collection(let elements) = try constantValue(of: argument) else {
            throw .invalidPredicate("\(function.rawValue) reads a to-many key path or a collection {…}, in '\(expression)'")
        }
        var values: [DatabaseValue] = []
        for element in elements {
            guard case .attribute(let value) = element, Double(attributeValue: value) != nil || value == .null else {
                throw .invalidPredicate("\(function.rawValue) takes numbers, not \(element), in '\(expression)'")
            }
            if value != .null { values.append(value.databaseValue) }
        }
        return .constant(PredicateValue(stored: StoredAggregate.value(aggregate, values)))
    }

    /// `median:`, `mode:` and `stddev:` of the numbers of `{…}`, computed now. Over a to-many they
    /// are an error: no engine has them as aggregates, nor does Core Data's SQL store.
    private func statistic(_ function: PredicateFunction, of argument: PredicateExpression, _ expression: PredicateExpression) throws(ContextError) -> Side {
        if case .toMany? = try walkIfKeyPath(argument) {
            throw .invalidPredicate("\(function.rawValue) reads a collection {…}; a fetch computes sum:, count:, min:, max: and average: of a to-many, in '\(expression)'")
        }
        guard case .collection(let elements) = try constantValue(of: argument) else {
            throw .invalidPredicate("\(function.rawValue) reads a collection {…}, in '\(expression)'")
        }
        var numbers: [AttributeValue] = []
        for element in elements {
            guard case .attribute(let value) = element, Double(attributeValue: value) != nil || value == .null else {
                throw .invalidPredicate("\(function.rawValue) takes numbers, not \(element), in '\(expression)'")
            }
            // A number that is no number (NaN) has no place in an order or a count, as `nil` has none.
            if value != .null, !(Double(attributeValue: value)?.isNaN ?? false) { numbers.append(value) }
        }
        let statistics = Statistics(numbers)
        switch function {
        case .median: return .constant(.attribute(statistics.median))
        case .mode: return .constant(.collection(statistics.modes.map(PredicateValue.attribute)))
        default: return .constant(.attribute(statistics.standardDeviation))
        }
    }

    /// What a side yields; `nil` for `nil`, which goes with anything.
    func kind(of side: Side) -> ValueKind? {
        switch side {
        case .resolved(_, let kind): kind
        case .constant(.attribute(let value)):
            switch value {
            case .null: nil
            case .integer, .bool: .integer
            case .double, .decimal: .real
            case .string: .attribute(.string)
            case .date: .attribute(.date)
            case .data: .attribute(.binary)
            case .uuid: .attribute(.uuid)
            case .url: .attribute(.uri)
            case .composite: .attribute(.composite)
            }
        case .constant(.object): .object
        case .constant(.collection), .constant(.fetch): nil
        }
    }

    /// A side as an operand: a constant in its stored form.
    private func resolvedOperand(_ side: Side) -> ResolvedExpression {
        switch side {
        case .resolved(let expression, _): expression
        case .constant(.attribute(let value)): .value(value.databaseValue)
        case .constant: .value(.null)
        }
    }
}

extension PredicateValue {
    /// A stored number or text as a constant.
    init(stored value: DatabaseValue) {
        switch value.storage {
        case .int64(let integer): self = .attribute(.integer(integer))
        case .double(let real): self = .attribute(.double(real))
        case .string(let text): self = .attribute(.string(text))
        case .blob(let bytes): self = .attribute(.data(bytes))
        case .null: self = .attribute(.null)
        }
    }
}
