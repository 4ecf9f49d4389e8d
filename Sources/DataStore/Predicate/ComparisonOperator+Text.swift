/// The string operators as functions, for code that needs the predicates' exact meaning outside a
/// fetch — search highlighting, or SQL run on the store by other tools.
extension ComparisonOperator {
    /// Whether `value <operator> pattern` holds, as a predicate with `options` evaluates it, in
    /// memory and in the store's SQL: `.contains.matches("Straße", "STRASSE", options: .caseInsensitive)`.
    /// `false` for operators that are not string operators. A pattern already folded with
    /// `options.fold(_:)` (`patternIsFolded`) is not folded again, so that matching one pattern
    /// against many values folds it once.
    public func matches(_ value: String, _ pattern: String, options: StringOptions = [], patternIsFolded: Bool = false) -> Bool {
        TextMatching.matches(value, self, pattern, options: options, patternIsFolded: patternIsFolded)
    }
}

extension StringOptions {
    /// `text` as `[c]` and `[d]` compare it: decomposed, without combining marks for `[d]`,
    /// lowercased for `[c]`, recomposed.
    public func fold(_ text: String) -> String {
        TextMatching.fold(text, self)
    }
}
