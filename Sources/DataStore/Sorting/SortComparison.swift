import Foundation
import GRDB

/// The order of stored values under a sort descriptor's comparator, shared by the store's SQL
/// (`DSFOLD`, the `DSLOCALIZEDSTANDARD` collation) and in-memory sorting.
enum SortComparison {
    /// -1, 0 or 1 for two stored values, ascending.
    static func compare(_ lhs: DatabaseValue, _ rhs: DatabaseValue, _ comparator: ObjectSortDescriptor.Comparator) -> Int {
        switch (comparator, lhs.storage, rhs.storage) {
        case (.caseInsensitiveCompare, .string(let left), .string(let right)):
            return StoredValueOrder.compare(TextMatching.fold(left, .caseInsensitive).databaseValue, TextMatching.fold(right, .caseInsensitive).databaseValue)
        case (.localizedStandardCompare, .string(let left), .string(let right)):
            return localizedStandard(left, right).rawValue
        default:
            return StoredValueOrder.compare(lhs, rhs)
        }
    }

    /// Digit runs compare by value; the rest first without case and accents, then without case,
    /// then by bytes, so that only equal strings are equal.
    static func localizedStandard(_ lhs: String, _ rhs: String) -> ComparisonResult {
        for options: StringOptions in [[.caseInsensitive, .diacriticInsensitive], [.caseInsensitive]] {
            let order = numericCompare(Array(TextMatching.fold(lhs, options).unicodeScalars), Array(TextMatching.fold(rhs, options).unicodeScalars))
            if order != .orderedSame { return order }
        }
        let order = StoredValueOrder.compare(lhs.databaseValue, rhs.databaseValue)
        return order < 0 ? .orderedAscending : order > 0 ? .orderedDescending : .orderedSame
    }

    private static func numericCompare(_ lhs: [Unicode.Scalar], _ rhs: [Unicode.Scalar]) -> ComparisonResult {
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
        var left = 0, right = 0
        while left < lhs.count, right < rhs.count {
            if isDigit(lhs[left]), isDigit(rhs[right]) {
                let leftRun = run(lhs, from: &left, where: isDigit), rightRun = run(rhs, from: &right, where: isDigit)
                let leftDigits = leftRun.drop { $0 == "0" }, rightDigits = rightRun.drop { $0 == "0" }
                if leftDigits.count != rightDigits.count { return leftDigits.count < rightDigits.count ? .orderedAscending : .orderedDescending }
                for (l, r) in zip(leftDigits, rightDigits) where l != r { return l.value < r.value ? .orderedAscending : .orderedDescending }
                continue
            }
            if lhs[left] != rhs[right] { return lhs[left].value < rhs[right].value ? .orderedAscending : .orderedDescending }
            left += 1
            right += 1
        }
        if left == lhs.count, right == rhs.count { return .orderedSame }
        return left == lhs.count ? .orderedAscending : .orderedDescending
    }

    private static func run(_ scalars: [Unicode.Scalar], from index: inout Int, where belongs: (Unicode.Scalar) -> Bool) -> ArraySlice<Unicode.Scalar> {
        let start = index
        while index < scalars.count, belongs(scalars[index]) { index += 1 }
        return scalars[start..<index]
    }
}
