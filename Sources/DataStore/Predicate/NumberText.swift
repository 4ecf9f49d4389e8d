import GRDB

/// A number as `NSNumber`'s `stringValue` writes it, for `number.stringValue` in predicates:
/// integers in full (a Boolean as `0` or `1`), reals without a fractional part as integers while
/// they are exact (`10`), others in their shortest form (`0.1`, `1e+20`).
enum NumberText {
    static func text(of value: DatabaseValue) -> DatabaseValue {
        switch value.storage {
        case .int64(let integer): return String(integer).databaseValue
        case .double(let real):
            if real == real.rounded(), abs(real) < 1e15 { return String(Int64(real)).databaseValue }
            return "\(real)".databaseValue
        default: return .null
        }
    }
}
