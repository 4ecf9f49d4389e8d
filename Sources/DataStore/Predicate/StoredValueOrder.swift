import Foundation
import GRDB

/// SQLite's comparison of stored values, in Swift: `NULL` < numbers (integers and reals compared by
/// value) < text (by UTF-8 bytes) < blobs (by bytes). In-memory evaluation and sorting use it, so
/// they order values exactly as the store's SQL does.
enum StoredValueOrder {
    /// -1, 0 or 1 as `lhs` sorts before, with or after `rhs`.
    static func compare(_ lhs: DatabaseValue, _ rhs: DatabaseValue) -> Int {
        switch (lhs.storage, rhs.storage) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.int64(let left), .int64(let right)): return left < right ? -1 : left == right ? 0 : 1
        case (.double(let left), .double(let right)): return left < right ? -1 : left == right ? 0 : 1
        case (.int64(let left), .double(let right)): return -compareReal(right, withInteger: left)
        case (.double(let left), .int64(let right)): return compareReal(left, withInteger: right)
        case (.int64, _), (.double, _): return -1
        case (_, .int64), (_, .double): return 1
        case (.string(let left), .string(let right)): return compareBytes(left.utf8, right.utf8)
        case (.string, .blob): return -1
        case (.blob, .string): return 1
        case (.blob(let left), .blob(let right)): return compareBytes(left, right)
        }
    }

    /// A real against an integer, exactly (no rounding of large integers).
    private static func compareReal(_ real: Double, withInteger integer: Int64) -> Int {
        if real < -9.223372036854775808e18 { return -1 }
        if real >= 9.223372036854775808e18 { return 1 }
        let truncated = Int64(real.rounded(.towardZero))
        if truncated != integer { return truncated < integer ? -1 : 1 }
        let fraction = real - real.rounded(.towardZero)
        return fraction < 0 ? -1 : fraction > 0 ? 1 : 0
    }

    private static func compareBytes<Bytes: Sequence<UInt8>>(_ lhs: Bytes, _ rhs: Bytes) -> Int {
        var left = lhs.makeIterator(), right = rhs.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let l?, let r?) where l != r: return l < r ? -1 : 1
            default: continue
            }
        }
    }
}
