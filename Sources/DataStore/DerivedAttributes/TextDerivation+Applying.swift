import DataModel

extension DerivationExpression.TextDerivation {
    /// `text` transformed: `canonical` folds as `[cd]` comparisons do; `lowercase` and `uppercase`
    /// use Unicode case mapping. The SQLite store's triggers and the server store's saves both
    /// call this, so a value is the same in either store.
    func applied(to text: String) -> String {
        switch self {
        case .canonical: TextMatching.fold(text, [.caseInsensitive, .diacriticInsensitive])
        case .lowercase: text.lowercased()
        case .uppercase: text.uppercased()
        }
    }
}
