/// A token of a predicate format string, with the column (from 1) where it starts.
struct PredicateToken: Equatable {
    enum Kind: Equatable {
        /// An identifier or a reserved word, as written.
        case word(String)
        /// `#word`: an identifier even when it is a reserved word.
        case escapedWord(String)
        case string(String)
        case number(AttributeValue)
        /// Punctuation and operators: `(`, `==`, `&&`, …
        case symbol(String)
        /// A format specifier without its `%`: `@`, `K`, `d`, `ld`, `f`, …
        case specifier(String)
        /// `$NAME`.
        case variable(String)
        /// `@count`, `@sum`, …
        case collectionOperator(String)
        case end
    }

    let kind: Kind
    let column: Int

    /// The reserved word this token is, uppercased; `nil` for anything else.
    var keyword: String? {
        guard case .word(let word) = kind else { return nil }
        let upper = word.uppercased()
        return Self.reservedWords.contains(upper) ? upper : nil
    }

    static let reservedWords: Set<String> = [
        "AND", "OR", "NOT", "IN", "LIKE", "MATCHES", "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN",
        "ANY", "ALL", "NONE", "SOME", "NULL", "NIL", "SELF", "TRUE", "FALSE", "YES", "NO",
        "TRUEPREDICATE", "FALSEPREDICATE", "SUBQUERY", "CAST",
    ]

    /// How the token reads in an error message.
    var quoted: String {
        switch kind {
        case .word(let word): "'\(word)'"
        case .escapedWord(let word): "'#\(word)'"
        case .string(let text): "string \"\(text)\""
        case .number(let value): "number \(value)"
        case .symbol(let symbol): "'\(symbol)'"
        case .specifier(let specifier): "'%\(specifier)'"
        case .variable(let name): "'$\(name)'"
        case .collectionOperator(let name): "'@\(name)'"
        case .end: "end of input"
        }
    }
}
