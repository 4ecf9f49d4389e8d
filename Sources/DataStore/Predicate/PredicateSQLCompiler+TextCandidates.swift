import GRDB

extension PredicateSQLCompiler {
    /// Where text is not matched in SQL (a server's), a condition every row that `term` matches meets, in SQL, for a text comparison
    /// judged in memory: so that a fetch reads the rows that may match rather than every row.
    ///
    /// Text is folded as `TextMatching` folds it, which a server's SQL cannot do for every
    /// character; but an ASCII value folds byte by byte, lowercasing `A`–`Z` for `[c]`, and is
    /// searched by bytes, which SQL's `LIKE` and `lower()` (under the `"C"` collation) do alike.
    /// So the condition is exact for ASCII values, and lets every other value through, to be
    /// judged in memory. `nil` for terms it does not cover: `BEGINSWITH`, `ENDSWITH` and
    /// `CONTAINS` of a string attribute against a constant.
    mutating func textCandidates(of term: ResolvedPredicate) -> SQLFragment? {
        guard case .compare(.attribute(let path, let attribute), let comparisonOperator, .value(let constant), let options) = term,
              path.scope == 0, attribute.type == .string, case .string(let pattern) = constant.storage
        else { return nil }
        guard [.beginsWith, .endsWith, .contains].contains(comparisonOperator) else { return nil }
        let folded = TextMatching.fold(pattern, options)
        // An empty pattern matches nothing, nor does one with U+0000, which no stored text holds;
        // a pattern with other than ASCII matches no ASCII value.
        guard !folded.isEmpty, !folded.utf8.contains(0) else { return SQLFragment(sql: store.dialect.truth(false)) }
        let column = column(path, attribute)
        let hasOtherThanASCII = store.dialect.holdsOtherThanASCII(column)
        guard folded.utf8.allSatisfy({ $0 < 0x80 }) else { return SQLFragment(sql: hasOtherThanASCII) }
        let searched = options.contains(.caseInsensitive) ? "lower(\(column))" : column
        let escaped = Self.likeEscaped(folded)
        let like = switch comparisonOperator {
        case .beginsWith: escaped + "%"
        case .endsWith: "%" + escaped
        default: "%" + escaped + "%"
        }
        return "(\(hasOtherThanASCII) OR \(searched) LIKE " + .bound(like.databaseValue) + " ESCAPE '\\')"
    }

    /// `text` with `LIKE`'s wildcards and its escape character escaped.
    private static func likeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
