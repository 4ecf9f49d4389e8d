/// Why a predicate format string could not be read, and where: `column` counts characters from 1.
///
///     error: expected ')' at column 17 in "price < 500 AND (name == %@"
public struct PredicateSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public let column: Int
    public let format: String

    public var description: String {
        "\(message) at column \(column) in \"\(format)\""
    }
}
