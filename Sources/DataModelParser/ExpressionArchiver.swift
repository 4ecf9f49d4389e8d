import Foundation
import PredicateLanguage
import PropertyLists

/// Writes a value expression as a mapping model keeps it: an `NSExpression` in a keyed archive, laid
/// out as Xcode's files hold one (`$source.title` is an `NSKeyPathExpression` of the variable
/// `source` and the key path `title`), which ``MappingModelParser`` reads back to the same
/// expression: in the same text for key paths, variables, constants, aggregates and `FUNCTION`
/// calls; operators in parentheses (`($source.price * 2)`), other built-in functions by their
/// selector (`abs:($source.delta)`), and strings in double quotes.
enum ExpressionArchiver {
    /// An expression the archive has no form for.
    struct Unsupported: Error, CustomStringConvertible {
        var description: String
    }

    /// The keyed archive of the expression `text` (predicate-language syntax).
    static func archive(_ text: String) throws -> [UInt8] {
        var writer = KeyedArchiveWriter()
        let root = try archive(PredicateLanguage.PredicateExpression(format: text), in: &writer)
        return writer.bytes(root: root)
    }

    private static func archive(_ expression: PredicateLanguage.PredicateExpression, in writer: inout KeyedArchiveWriter) throws -> PropertyListValue {
        switch expression {
        case .evaluatedObject:
            return writer.object("NSSelfExpression", ["NSExpressionType": .integer(1)], superclasses: ["NSExpression"])
        case .variable(let name):
            let variable = writer.string(name)
            return writer.object("NSVariableExpression", ["NSVariable": variable, "NSExpressionType": .integer(2)], superclasses: ["NSExpression"])
        case .constant(let value):
            let constant = try self.constant(value, in: &writer)
            return writer.object("NSConstantValueExpression", ["NSConstantValue": constant, "NSExpressionType": .integer(0)], superclasses: ["NSExpression"])
        case .collection(let elements):
            let archived = try elements.map { try archive($0, in: &writer) }
            let collection = writer.array(archived)
            return writer.object("NSAggregateExpression", ["NSCollection": collection, "NSExpressionType": .integer(14)], superclasses: ["NSExpression"])
        case .keyPath(let base, let keys):
            let operand = try archive(base, in: &writer)
            let path = writer.string(keys.joined(separator: "."))
            let specifier = writer.object(
                "NSKeyPathSpecifierExpression", ["NSKeyPath": path, "NSExpressionType": .integer(10)], superclasses: ["NSExpression"])
            return call("valueForKeyPath:", on: operand, [specifier], className: "NSKeyPathExpression", in: &writer)
        case .method(let receiver, let selector, let arguments):
            let operand = try archive(receiver, in: &writer)
            let archived = try arguments.map { try archive($0, in: &writer) }
            return call(selector, on: operand, archived, className: "NSFunctionExpression", in: &writer)
        case .function(let function, let arguments):
            // Built-in functions are methods of the class `_NSPredicateUtilities`, kept by name.
            let utilities = writer.string("_NSPredicateUtilities")
            let operand = writer.object(
                "NSConstantValueExpression", ["NSConstantValueClassName": utilities, "NSExpressionType": .integer(0)], superclasses: ["NSExpression"])
            let archived = try arguments.map { try archive($0, in: &writer) }
            return call(function.rawValue, on: operand, archived, className: "NSFunctionExpression", in: &writer)
        case .subquery, .conditional, .index:
            throw Unsupported(description: "SUBQUERY, TERNARY and indexes are not written in a value expression")
        }
    }

    private static func call(
        _ selector: String, on operand: PropertyListValue, _ arguments: [PropertyListValue], className: String, in writer: inout KeyedArchiveWriter
    ) -> PropertyListValue {
        let name = writer.string(selector)
        let list = writer.array(arguments)
        let superclasses = className == "NSFunctionExpression" ? ["NSExpression"] : ["NSFunctionExpression", "NSExpression"]
        return writer.object(
            className, ["NSOperand": operand, "NSSelectorName": name, "NSArguments": list, "NSExpressionType": .integer(4)], superclasses: superclasses)
    }

    private static func constant(_ value: PredicateValue, in writer: inout KeyedArchiveWriter) throws -> PropertyListValue {
        switch value {
        case .attribute(.null): return KeyedArchiveWriter.null
        case .attribute(.string(let text)): return writer.string(text)
        case .attribute(.integer(let number)): return .integer(Int(number))
        case .attribute(.double(let number)): return .real(number)
        case .attribute(.bool(let flag)): return .boolean(flag)
        case .collection(let elements): return writer.array(try elements.map { try constant($0, in: &writer) })
        default: throw Unsupported(description: "a constant of this type is not written in a value expression")
        }
    }
}
