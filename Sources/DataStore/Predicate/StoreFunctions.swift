import Foundation
import GRDB
import GRDBSQLite

/// The SQL functions and collation predicates and sort descriptors compile to, registered on every
/// connection of a store. They call `TextMatching` and `SortComparison`, the same code in-memory
/// evaluation uses.
enum StoreFunctions {
    /// `DSTEXT(code, value, pattern)`: 1 when the string operator `code` holds, else 0 (also for
    /// `NULL` or non-text operands). `code` is `textOperatorCode(_:_:)`.
    ///
    /// Registered through SQLite's C API rather than as a GRDB `DatabaseFunction`: it runs once per
    /// candidate row of a string predicate, and boxing its arguments cost a tenth of such a fetch.
    private static func registerText(on connection: OpaquePointer) {
        sqlite3_create_function_v2(connection, "DSTEXT", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, _, arguments in
            guard let arguments, let codeArgument = arguments[0], let value = StoreFunctions.text(arguments[1]), let pattern = StoreFunctions.text(arguments[2]),
                  sqlite3_value_type(codeArgument) == SQLITE_INTEGER
            else { return sqlite3_result_int(context, 0) }
            let code = Int(sqlite3_value_int64(codeArgument))
            guard ComparisonOperator.allCases.indices.contains(code >> 3) else { return sqlite3_result_int(context, 0) }
            let holds = TextMatching.matches(
                value, ComparisonOperator.allCases[code >> 3], pattern, options: StringOptions(rawValue: code & 3),
                patternIsFolded: code & 4 != 0)
            sqlite3_result_int(context, holds ? 1 : 0)
        }, nil, nil, nil)
    }

    /// A text argument's string; `nil` for any other storage class.
    private static func text(_ argument: OpaquePointer?) -> String? {
        guard let argument, sqlite3_value_type(argument) == SQLITE_TEXT else { return nil }
        return AttributeValue.text(of: argument)
    }

    /// `DSFOLD(value, options)`: text folded for `[c]`/`[d]`; other values unchanged.
    static let fold = DatabaseFunction("DSFOLD", argumentCount: 2, pure: true) { values in
        guard case .string(let value) = values[0].storage, let options = Int.fromDatabaseValue(values[1]) else { return values[0] }
        return TextMatching.fold(value, StringOptions(rawValue: options))
    }

    /// `DSFUNCTION(code, arguments…)`: the built-in function `code` (its position among
    /// `PredicateFunction.allCases`) of the arguments, as in-memory evaluation computes it.
    static let function = DatabaseFunction("DSFUNCTION", argumentCount: nil, pure: true) { values in
        guard let code = values.first.flatMap(Int.fromDatabaseValue), PredicateFunction.allCases.indices.contains(code) else { return DatabaseValue.null }
        return PredicateFunction.allCases[code].value(of: Array(values.dropFirst()))
    }

    /// `DSNUMBERTEXT(x)`: `x.stringValue`, as in memory.
    static let numberText = DatabaseFunction("DSNUMBERTEXT", argumentCount: 1, pure: true) { values in
        NumberText.text(of: values[0])
    }

    /// The code of `function` for `DSFUNCTION`.
    static func code(of function: PredicateFunction) -> Int {
        PredicateFunction.allCases.firstIndex(of: function)!
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
        if let connection = db.sqliteConnection { registerText(on: connection) }
        db.add(function: fold)
        db.add(function: function)
        db.add(function: numberText)
        db.add(collation: localizedStandard)
    }
}
