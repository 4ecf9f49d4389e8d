import Foundation

/// The string operators and modifiers, defined once: the store's SQL functions call these, and
/// in-memory evaluation calls them too, so both give the same answer for every string.
///
/// Without modifiers, strings compare by their UTF-8 bytes, as SQLite does. With `[c]` or `[d]`,
/// both sides are first decomposed (NFD); `[d]` then drops combining marks, `[c]` lowercases, and
/// the result is recomposed (NFC), so that `é` and `e` + U+0301 are one character either way.
enum TextMatching {
    static func fold(_ text: String, _ options: StringOptions) -> String {
        guard !options.isEmpty else { return text }
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII has no combining marks and its own fast lowercasing.
            return options.contains(.caseInsensitive) ? String(decoding: text.utf8.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self) : text
        }
        var folded = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars
        where !(options.contains(.diacriticInsensitive) && scalar.properties.generalCategory == .nonspacingMark) {
            folded.append(scalar)
        }
        let result = String(folded)
        return (options.contains(.caseInsensitive) ? result.lowercased() : result).precomposedStringWithCanonicalMapping
    }

    /// Whether `value op pattern` holds for one of the string operators. A constant pattern comes
    /// already folded (`patternIsFolded`), so that it is folded once per fetch, not once per row.
    static func matches(_ value: String, _ comparisonOperator: ComparisonOperator, _ pattern: String, options: StringOptions, patternIsFolded: Bool = false) -> Bool {
        if comparisonOperator == .matches {
            return RegularExpressions.matches(fold(value, options.subtracting(.caseInsensitive)), pattern: pattern, caseInsensitive: options.contains(.caseInsensitive))
        }
        let value = fold(value, options), pattern = patternIsFolded ? pattern : fold(pattern, options)
        switch comparisonOperator {
        case .beginsWith: return !pattern.isEmpty && value.utf8.starts(with: pattern.utf8)
        case .endsWith: return !pattern.isEmpty && value.utf8.reversed().starts(with: pattern.utf8.reversed())
        case .contains: return !pattern.isEmpty && containsBytes(value, pattern)
        case .like: return like(Array(value.unicodeScalars), Array(pattern.unicodeScalars))
        default: return false
        }
    }

    private static func containsBytes(_ value: String, _ pattern: String) -> Bool {
        var value = value, pattern = pattern
        return value.withUTF8 { haystack in
            pattern.withUTF8 { needle in
                guard needle.count <= haystack.count, let first = needle.first else { return false }
                var start = 0
                while start + needle.count <= haystack.count {
                    if haystack[start] == first, memcmp(haystack.baseAddress! + start, needle.baseAddress!, needle.count) == 0 { return true }
                    start += 1
                }
                return false
            }
        }
    }

    /// `LIKE`: `?` is one character (Unicode scalar), `*` any run of them.
    private static func like(_ value: [Unicode.Scalar], _ pattern: [Unicode.Scalar]) -> Bool {
        var valueIndex = 0, patternIndex = 0
        var starPattern = -1, starValue = 0
        while valueIndex < value.count {
            if patternIndex < pattern.count, pattern[patternIndex] == "?" || (pattern[patternIndex] != "*" && pattern[patternIndex] == value[valueIndex]) {
                valueIndex += 1
                patternIndex += 1
            } else if patternIndex < pattern.count, pattern[patternIndex] == "*" {
                starPattern = patternIndex
                starValue = valueIndex
                patternIndex += 1
            } else if starPattern >= 0 {
                patternIndex = starPattern + 1
                starValue += 1
                valueIndex = starValue
            } else {
                return false
            }
        }
        while patternIndex < pattern.count, pattern[patternIndex] == "*" { patternIndex += 1 }
        return patternIndex == pattern.count
    }
}

/// Compiled `MATCHES` patterns (ICU syntax, the whole string must match), cached by pattern.
enum RegularExpressions {
    private static let cache = Locked<[String: NSRegularExpression]>([:])

    static func expression(_ pattern: String, caseInsensitive: Bool) -> NSRegularExpression? {
        let key = (caseInsensitive ? "i:" : "s:") + pattern
        if let cached = cache.withLock({ $0[key] }) { return cached }
        // The pattern must compile alone (so it is balanced) before it is anchored at both ends.
        guard (try? NSRegularExpression(pattern: pattern)) != nil, !pattern.contains("\\Q"),
              let compiled = try? NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z", options: caseInsensitive ? [.caseInsensitive] : []) else { return nil }
        cache.withLock { $0[key] = compiled }
        return compiled
    }

    static func matches(_ value: String, pattern: String, caseInsensitive: Bool) -> Bool {
        guard let expression = expression(pattern, caseInsensitive: caseInsensitive) else { return false }
        return expression.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
    }
}
