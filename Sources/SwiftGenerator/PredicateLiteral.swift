import PredicateLanguage
import Foundation

/// A parsed predicate spelled as Swift values (`.comparison(PredicateComparison(…))`), so generated
/// code carries it checked and never parses a format string at run time.
struct PredicateLiteral {
    /// The Swift expression that replaces the `$VARIABLE` named by the key, as a `PredicateExpression`
    /// (`.constant(maxPrice.predicateValue)`). Variables without one stay `.variable("NAME")`.
    var replacements: [String: String] = [:]

    /// A constant the literal cannot spell (an object), so the predicate cannot be generated.
    struct UnsupportedConstant: Error {}

    func expression(for predicate: ObjectPredicate) throws(UnsupportedConstant) -> SwiftExpression {
        switch predicate {
        case .constant(let value): return .raw(".constant(\(value))")
        case .not(let inner): return .call(".not", [(nil, try expression(for: inner))])
        case .and(let parts): return .call(".and", [(nil, .array(try parts.map { p throws(UnsupportedConstant) in try expression(for: p) }))])
        case .or(let parts): return .call(".or", [(nil, .array(try parts.map { p throws(UnsupportedConstant) in try expression(for: p) }))])
        case .comparison(let comparison):
            var arguments: [(label: String?, value: SwiftExpression)] = [
                (nil, try expression(for: comparison.lhs)),
                (nil, .raw(".\(caseName(of: comparison.operator))")),
                (nil, try expression(for: comparison.rhs)),
            ]
            var options: [String] = []
            if comparison.options.contains(.caseInsensitive) { options.append(".caseInsensitive") }
            if comparison.options.contains(.diacriticInsensitive) { options.append(".diacriticInsensitive") }
            if !options.isEmpty { arguments.append(("options", .raw("[" + options.joined(separator: ", ") + "]"))) }
            if comparison.quantifier != .direct { arguments.append(("quantifier", .raw(".\(comparison.quantifier)"))) }
            return .call(".comparison", [(nil, .call("PredicateComparison", arguments))])
        }
    }

    private func expression(for side: PredicateLanguage.PredicateExpression) throws(UnsupportedConstant) -> SwiftExpression {
        switch side {
        case .evaluatedObject:
            return .raw(".evaluatedObject")
        case .variable(let name):
            return .raw(replacements[name] ?? ".variable(\(swiftStringLiteral(name)))")
        case .constant(let value):
            return .call(".constant", [(nil, try expression(for: value))])
        case .collection(let elements):
            return .call(".collection", [(nil, .array(try elements.map { e throws(UnsupportedConstant) in try expression(for: e) }))])
        case .keyPath(let base, let components):
            return .call(".keyPath", [(nil, try expression(for: base)), (nil, .array(components.map(SwiftExpression.string)))])
        case .subquery(let collection, let variable, let predicate):
            var inner = self
            inner.replacements[variable] = nil
            return .call(".subquery", [
                ("collection", try expression(for: collection)), ("variable", .string(variable)),
                ("predicate", try inner.expression(for: predicate)),
            ])
        case .function(let function, let arguments):
            return .call(".function", [
                (nil, .raw(".\(String(describing: function))")),
                (nil, .array(try arguments.map { a throws(UnsupportedConstant) in try expression(for: a) })),
            ])
        case .conditional(let condition, let whenTrue, let whenFalse):
            return .call(".conditional", [
                (nil, try expression(for: condition)), (nil, try expression(for: whenTrue)), (nil, try expression(for: whenFalse)),
            ])
        case .index(let collection, let index):
            let position: String = switch index {
            case .first: ".first"
            case .last: ".last"
            case .size: ".size"
            case .position(let position): ".position(\(position))"
            }
            return .call(".index", [(nil, try expression(for: collection)), (nil, .raw(position))])
        case .method(let receiver, let selector, let arguments):
            return .call(".method", [
                (nil, try expression(for: receiver)), ("selector", .string(selector)),
                (nil, .array(try arguments.map { a throws(UnsupportedConstant) in try expression(for: a) })),
            ])
        }
    }

    private func expression(for value: PredicateValue) throws(UnsupportedConstant) -> SwiftExpression {
        switch value {
        case .attribute(let attribute): return .raw(try literal(for: attribute))
        case .collection(let elements): return .call(".collection", [(nil, .array(try elements.map { e throws(UnsupportedConstant) in try expression(for: e) }))])
        case .object, .fetch: throw UnsupportedConstant()
        }
    }

    private func literal(for value: AttributeValue) throws(UnsupportedConstant) -> String {
        switch value {
        case .null: ".null"
        case .integer(let number): ".attribute(.integer(\(number)))"
        case .double(let number): ".attribute(.double(\(doubleLiteral(number))))"
        case .bool(let flag): ".attribute(.bool(\(flag)))"
        case .string(let text): ".attribute(.string(\(swiftStringLiteral(text))))"
        case .date(let date): ".attribute(.date(Date(timeIntervalSinceReferenceDate: \(doubleLiteral(date.timeIntervalSinceReferenceDate)))))"
        case .data(let bytes): ".attribute(.data(Data(\(Array(bytes)))))"
        case .uuid(let uuid): ".attribute(.uuid(UUID(uuid: \(uuid.uuid))))"
        case .decimal, .url, .composite: throw UnsupportedConstant()
        }
    }

    /// The Swift case name of an operator (`less`), not its format spelling (`<`).
    private func caseName(of comparisonOperator: ComparisonOperator) -> String {
        String(describing: comparisonOperator)
    }
}
