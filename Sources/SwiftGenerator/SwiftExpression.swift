/// A Swift expression built from calls, arrays and literals, rendered on one line when it fits and
/// one argument per line otherwise — the shape a person would write by hand.
indirect enum SwiftExpression {
    /// Source text as it is: `.double`, `true`, `maxPrice`.
    case raw(String)
    /// `callee(label: argument, …)`; arguments without a label are positional.
    case call(String, [(label: String?, value: SwiftExpression)])
    /// `[element, …]`.
    case array([SwiftExpression])

    /// A string literal.
    static func string(_ text: String) -> SwiftExpression { .raw(swiftStringLiteral(text)) }

    /// The widest line a rendered expression may make before it breaks.
    static let lineWidth = 120

    /// The expression as lines. The caller writes the first line after `lead` columns of its own
    /// text; later lines carry their indentation, `indent` columns for the closing bracket.
    func lines(indent: Int, lead: Int? = nil) -> [String] {
        if !isBreakable || flatWidth(within: Self.lineWidth - (lead ?? indent)) != nil { return [singleLine] }
        let inner = String(repeating: " ", count: indent + 4)
        switch self {
        case .raw(let text):
            return [text]
        case .call(let callee, let arguments):
            var result = ["\(callee)("]
            for (offset, argument) in arguments.enumerated() {
                let prefix = argument.label.map { "\($0): " } ?? ""
                var argumentLines = argument.value.lines(indent: indent + 4, lead: indent + 4 + prefix.count)
                argumentLines[0] = inner + prefix + argumentLines[0]
                if offset < arguments.count - 1 { argumentLines[argumentLines.count - 1] += "," }
                result += argumentLines
            }
            result.append(String(repeating: " ", count: indent) + ")")
            return result
        case .array(let elements):
            var result = ["["]
            for element in elements {
                var elementLines = element.lines(indent: indent + 4)
                elementLines[0] = inner + elementLines[0]
                elementLines[elementLines.count - 1] += ","
                result += elementLines
            }
            result.append(String(repeating: " ", count: indent) + "]")
            return result
        }
    }

    private var isBreakable: Bool {
        switch self {
        case .raw: false
        case .call(_, let arguments): !arguments.isEmpty
        case .array(let elements): !elements.isEmpty
        }
    }

    /// The width of `singleLine`, or nil once it passes `limit`: measured without building the
    /// text, which for a whole model is megabytes at every level of the expression.
    private func flatWidth(within limit: Int) -> Int? {
        var width: Int
        switch self {
        case .raw(let text):
            width = text.count
        case .call(let callee, let arguments):
            width = callee.count + 2
            for (offset, argument) in arguments.enumerated() {
                width += (offset > 0 ? 2 : 0) + (argument.label.map { $0.count + 2 } ?? 0)
                guard width <= limit, let argumentWidth = argument.value.flatWidth(within: limit - width) else { return nil }
                width += argumentWidth
            }
        case .array(let elements):
            width = 2
            for (offset, element) in elements.enumerated() {
                width += offset > 0 ? 2 : 0
                guard width <= limit, let elementWidth = element.flatWidth(within: limit - width) else { return nil }
                width += elementWidth
            }
        }
        return width <= limit ? width : nil
    }

    private var singleLine: String {
        switch self {
        case .raw(let text):
            text
        case .call(let callee, let arguments):
            "\(callee)(" + arguments.map { ($0.label.map { "\($0): " } ?? "") + $0.value.singleLine }
                .joined(separator: ", ") + ")"
        case .array(let elements):
            "[" + elements.map(\.singleLine).joined(separator: ", ") + "]"
        }
    }
}

/// `text` as a Swift string literal: quotes, backslashes and control characters escaped.
func swiftStringLiteral(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F || scalar.properties.generalCategory == .format {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result + "\""
}
