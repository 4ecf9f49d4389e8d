import Foundation
import GRDB

/// The SQL functions and collation predicates and sort descriptors compile to, registered on every
/// connection of a store. They call `TextMatching` and `SortComparison`, the same code in-memory
/// evaluation uses.
enum StoreFunctions {
    /// `DSTEXT(code, value, pattern)`: 1 when the string operator `code` holds, else 0 (also for
    /// `NULL` or non-text operands). `code` is `textOperatorCode(_:_:)`.
    static let text = DatabaseFunction("DSTEXT", argumentCount: 3, pure: true) { values in
        guard let code = Int.fromDatabaseValue(values[0]),
              case .string(let value) = values[1].storage, case .string(let pattern) = values[2].storage else { return 0 }
        let comparisonOperator = ComparisonOperator.allCases[code >> 3]
        return TextMatching.matches(value, comparisonOperator, pattern, options: StringOptions(rawValue: code & 3), patternIsFolded: code & 4 != 0) ? 1 : 0
    }

    /// `DSFOLD(value, options)`: text folded for `[c]`/`[d]`; other values unchanged.
    static let fold = DatabaseFunction("DSFOLD", argumentCount: 2, pure: true) { values in
        guard case .string(let value) = values[0].storage, let options = Int.fromDatabaseValue(values[1]) else { return values[0] }
        return TextMatching.fold(value, StringOptions(rawValue: options))
    }

    /// `COLLATE DSLOCALIZEDSTANDARD`: `localizedStandardCompare`'s order.
    static let localizedStandard = DatabaseCollation("DSLOCALIZEDSTANDARD") { lhs, rhs in
        SortComparison.localizedStandard(lhs, rhs)
    }

    /// The operator, the options, and (4) whether the pattern argument is already folded.
    static func textOperatorCode(_ comparisonOperator: ComparisonOperator, _ options: StringOptions, patternIsFolded: Bool) -> Int {
        ComparisonOperator.allCases.firstIndex(of: comparisonOperator)! << 3 | (patternIsFolded ? 4 : 0) | options.rawValue
    }

    static func register(in db: Database) {
        db.add(function: text)
        db.add(function: fold)
        db.add(collation: localizedStandard)
    }
}
